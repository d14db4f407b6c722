import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
application = get_wsgi_application()

from config.warm import load_urls  # noqa: E402

load_urls()

from config.embedded_beat import start_embedded_beat  # noqa: E402

start_embedded_beat()  # the periodic tasks when there is no beat (EMBEDDED_BEAT=1)
