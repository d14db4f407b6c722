"""The accounts' part of the REST API (routes in ``tournaments/api/urls.py``, namespace
``api``): API tokens and "who am I". A door like the rest of the API, on its base
(``tournaments.api.base``)."""

from __future__ import annotations

from django.contrib.auth import authenticate
from drf_spectacular.utils import (
    extend_schema,
)
from rest_framework import exceptions, serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response

from accounts.tokens import api_token_issue, api_token_revoke, token_auth_available
from core.throttles import LOGIN_THROTTLES
from tournaments.api.base import ApiView, error_responses
from tournaments.api.players import PlayerSerializer
from tournaments.models import (
    League,
    Player,
)


class MeSerializer(serializers.Serializer):
    username = serializers.CharField()
    is_staff = serializers.BooleanField()
    player = PlayerSerializer(allow_null=True)
    organized_leagues = serializers.ListField(child=serializers.SlugField())


class TokenRequestSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=256, style={"input_type": "password"})


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField(help_text='send as the header "Authorization: Token <token>"')


class TokenAuthUnavailable(exceptions.APIException):
    status_code = status.HTTP_503_SERVICE_UNAVAILABLE
    default_code = "unavailable"
    default_detail = "token authentication is not enabled on this server"


class AuthTokenView(ApiView):
    # Tokens for bots and scripts.

    permission_classes = [AllowAny]
    throttle_classes = LOGIN_THROTTLES

    def _require_tokens(self) -> None:
        if not token_auth_available():
            raise TokenAuthUnavailable()

    @extend_schema(
        operation_id="auth_token_create",
        summary="Get your API token (log in with user name and password)",
        request=TokenRequestSerializer,
        responses={200: TokenSerializer, **error_responses(400, 401, 403, 429)},
        auth=[],
    )
    def post(self, request):
        self._require_tokens()
        data = self.input(TokenRequestSerializer, request)
        user = authenticate(request._request, username=data["username"], password=data["password"])
        if user is None or not user.is_active:
            # not a malformed request: the credentials are refused (issue 32: was a 400)
            raise exceptions.AuthenticationFailed(
                "unable to log in with this user name and password"
            )
        return Response({"token": api_token_issue(user).key})

    @extend_schema(
        operation_id="auth_token_destroy",
        summary="Revoke your API token",
        request=None,
        responses={204: None, **error_responses(401)},
    )
    def delete(self, request):
        if not request.user.is_authenticated:
            raise exceptions.NotAuthenticated()
        self._require_tokens()
        api_token_revoke(request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MeView(ApiView):
    permission_classes = [IsAuthenticated]

    @extend_schema(summary="Who am I", responses={200: MeSerializer, **error_responses(401)})
    def get(self, request):
        user = request.user
        player = Player.objects.filter(user=user).first()
        organized = League.objects.filter(owner=user) | League.objects.filter(
            pk__in=League.organizers.through.objects.filter(user=user).values("league_id")
        )
        return Response(
            {
                "username": user.get_username(),
                "is_staff": user.is_staff,
                "player": PlayerSerializer(player).data if player else None,
                "organized_leagues": sorted(set(organized.values_list("slug", flat=True))),
            }
        )
