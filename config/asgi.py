"""The ASGI application: HTTP to Django, WebSockets to live play's consumers (Daphne)."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
django_asgi = get_asgi_application()  # sets Django up before the consumers are imported

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from config.autobahn_debug import install as autobahn_lazy_debug  # noqa: E402
from config.daphne_limits import install as daphne_rate_limit  # noqa: E402
from config.embedded_beat import start_embedded_beat  # noqa: E402
from config.websocket_auth import SessionUserMiddlewareStack  # noqa: E402
from live.apps import sweep_in_process_on_start  # noqa: E402
from live.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi,
        "websocket": AllowedHostsOriginValidator(
            SessionUserMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)
from config.warm import load_urls  # noqa: E402

load_urls()  # the URL configuration now, not in the first request
autobahn_lazy_debug()  # Daphne's protocol: its debug lines' text only when one is written
daphne_rate_limit()  # a connection's message rate, counted as Daphne parses its frames
# the periodic tasks when there is no beat (the embedded default, EMBEDDED_BEAT=1)
start_embedded_beat()
# without a broker or the embedded beat, this server sweeps lost timers and seats itself
sweep_in_process_on_start()
