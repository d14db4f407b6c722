"""The OpenAPI 3 schema and its browsable documentation, served without any CDN (the
Swagger UI files come from the ``drf-spectacular-sidecar`` package; drf-spectacular's Redoc
page is left out: its template loads web fonts from Google).

Mount at /api/ (config/urls.py): ``path("api/", include("tournaments.api.docs_urls"))``
→ /api/schema/ (YAML; ``?format=json`` for JSON), /api/docs/ (Swagger UI).
"""

from django.templatetags.static import static
from django.urls import path
from drf_spectacular.plumbing import _load_enum_name_overrides
from drf_spectacular.utils import extend_schema
from drf_spectacular.views import (
    SpectacularAPIView,
    SpectacularSwaggerSplitView,
)


def _sidecar(filepath: str) -> str:
    return static(f"drf_spectacular_sidecar/{filepath}")


class SchemaView(SpectacularAPIView):
    @extend_schema(exclude=True)
    def get(self, request, *args, **kwargs):
        _load_enum_name_overrides.cache_clear()  # cached per language, not per settings
        try:
            return super().get(request, *args, **kwargs)
        finally:
            _load_enum_name_overrides.cache_clear()


class SwaggerView(SpectacularSwaggerSplitView):  # its script is a file: no inline script (CSP)
    url_name = "api-schema"

    @staticmethod
    def _swagger_ui_resource(filename: str) -> str:
        return _sidecar(f"swagger-ui-dist/{filename}")

    @staticmethod
    def _swagger_ui_favicon() -> str:
        return _sidecar("swagger-ui-dist/favicon-32x32.png")


urlpatterns = [
    path("schema/", SchemaView.as_view(), name="api-schema"),
    path("docs/", SwaggerView.as_view(), name="api-docs"),
]
