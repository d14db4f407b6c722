"""The test settings with two more URLs for ``test_nginx_cache.py``'s gunicorn
(``nginx_cache_urls``): answers that say what nginx must do with them."""

from config.settings.test import *  # noqa: F403

ROOT_URLCONF = "tests.foundation.nginx_cache_urls"
