"""A learning management system for the tests: an LTI 1.3 platform with its own RSA key, on a
small HTTP server of its own (a thread of the test process). It answers the tool's OIDC login
redirect with a signed id_token, serves its key set, hands out access tokens to a tool that signs
its request with the key the tool publishes, keeps line items and records the scores posted to
them, and lists the course's members (Names and Role Provisioning Services) to a token granted
that scope. Claims it would send about a person (name, e-mail) go in every launch, so a test can look
for them where they must not be."""

import json
import re
import secrets
import threading
import time
import uuid
from html import escape, unescape
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlencode, urlsplit

import jwt
import requests
from jwcrypto.jwk import JWK

from tests.ports import free_port

CLAIM = "https://purl.imsglobal.org/spec/lti/claim/"
DL_CLAIM = "https://purl.imsglobal.org/spec/lti-dl/claim/"
AGS_CLAIM = "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"
INSTRUCTOR = "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"
LEARNER = "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"
NRPS_CLAIM = "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice"
NRPS_SCOPE = "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly"
AGS_SCOPES = [
    "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem",
    "https://purl.imsglobal.org/spec/lti-ags/scope/score",
]

#: what the platform knows of its people, and sends in every launch
PEOPLE = {
    "teacher-1": {"name": "Grace Hopperton", "email": "grace.hopperton@district.example"},
    "teacher-2": {"name": "Alan Turingham", "email": "alan.turingham@district.example"},
    "learner-1": {"name": "Ada Lovelacey", "email": "ada.lovelacey@district.example"},
    "learner-2": {"name": "Katherine Johnsonne", "email": "katherine.johnsonne@district.example"},
    "learner-3": {"name": "Mae Jemisonne", "email": "mae.jemisonne@district.example"},
    # in the course's member list only: a learner who left the course (Inactive)
    "learner-4": {"name": "Dorothy Vaughanne", "email": "dorothy.vaughanne@district.example"},
}
#: the course's members, as the platform lists them: (sub, role, status)
MEMBERS = [
    ("teacher-1", INSTRUCTOR, "Active"),
    ("learner-1", LEARNER, "Active"),
    ("learner-2", LEARNER, "Active"),
    ("learner-3", LEARNER, "Active"),
    ("learner-4", LEARNER, "Inactive"),
]


class Platform:
    client_id = "stormwise-client"
    deployment_id = "deployment-1"
    context_id = "course-101"

    def __init__(self):
        self.key = JWK.generate(kty="RSA", size=2048, kid=uuid.uuid4().hex)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.issuer = self.url
        self.pending = {}  # login_hint -> the claims of the launch it starts
        self.tool_jwks = None  # the tool's published keys, to check what it signs
        self.tokens = {}  # access token -> the scopes granted with it
        self.members_per_page = 2  # the member list comes in pages, linked by rel="next"
        self.membership_failures = 0  # the next so many member-list requests are answered 500
        self.share_names = True  # False: the member list carries user ids and roles only
        self.line_items = {}  # url -> line item
        self.scores = []  # (line item url, score) as posted
        self.score_failures = 0  # the next so many score posts are answered 500
        self.deep_link_returns = []  # the content items the tool sent back
        self.lock = threading.Lock()
        platform = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                platform.answer(self, "GET")

            def do_POST(self):
                platform.answer(self, "POST")

        self.server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=10)

    # --- registering in the tool ------------------------------------------------------------------

    def register(self, deployment_ids=(deployment_id,)):
        """The admin's registration of this platform in Stormwise (django-lti's models)."""
        from lti_tool.models import LtiDeployment, LtiRegistration

        registration = LtiRegistration.objects.create(
            name="Test LMS",
            issuer=self.issuer,
            client_id=self.client_id,
            auth_url=f"{self.url}/auth",
            token_url=f"{self.url}/token",
            keyset_url=f"{self.url}/jwks",
        )
        for deployment_id in deployment_ids:
            LtiDeployment.objects.create(registration=registration, deployment_id=deployment_id, is_active=True)
        return registration

    # --- launches -----------------------------------------------------------------------------------

    def claims(self, sub, role, message_type="LtiResourceLinkRequest", **extra):
        person = PEOPLE[sub]
        claims = {
            "sub": sub,
            "name": person["name"],
            "given_name": person["name"].split()[0],
            "family_name": person["name"].split()[1],
            "email": person["email"],
            CLAIM + "message_type": message_type,
            CLAIM + "version": "1.3.0",
            CLAIM + "deployment_id": self.deployment_id,
            CLAIM + "roles": [role],
            CLAIM + "context": {"id": self.context_id, "label": "SCI-101", "title": "Science 101"},
            CLAIM + "tool_platform": {"guid": "lms-1", "name": "Test LMS", "contact_email": "admin@district.example"},
        }
        if message_type == "LtiDeepLinkingRequest":
            claims[DL_CLAIM + "deep_linking_settings"] = {
                "deep_link_return_url": f"{self.url}/deep-link-return",
                "accept_types": ["ltiResourceLink"],
                "accept_presentation_document_targets": ["iframe", "window"],
                "data": "opaque-platform-data",
            }
        claims.update(extra)
        return claims

    def resource_link(self, item, sub, role, **extra):
        """The claims of a launch of a content item the tool sent back by deep linking."""
        claims = self.claims(sub, role, **extra)
        claims[CLAIM + "resource_link"] = {"id": f"link-{item['url_id']}", "title": item["title"]}
        claims[CLAIM + "target_link_uri"] = item["url"]
        claims[CLAIM + "custom"] = item.get("custom", {})
        claims[AGS_CLAIM] = {"scope": AGS_SCOPES, "lineitems": f"{self.url}/lineitems"}
        claims[NRPS_CLAIM] = {"context_memberships_url": f"{self.url}/memberships", "service_versions": ["2.0"]}
        if item.get("lineitem_url"):
            claims[AGS_CLAIM]["lineitem"] = item["lineitem_url"]
        return claims

    def id_token(self, claims, nonce, lifetime=300, key=None):
        now = int(time.time())
        body = {"iss": self.issuer, "aud": self.client_id, "iat": now, "exp": now + lifetime, "nonce": nonce}
        body.update(claims)
        key = key or self.key
        return jwt.encode(body, key.export_to_pem(private_key=True, password=None), "RS256", {"kid": key.kid})

    def expect(self, claims, **token_options):
        """A launch the platform will sign when the tool's login redirect reaches it."""
        hint = secrets.token_hex(8)
        self.pending[hint] = (claims, token_options)
        return hint

    def authorize(self, location):
        """A browser following the tool's redirect to the platform's sign-in: the platform's
        auto-posting form, as (action, fields)."""
        html = requests.get(location, timeout=10).text
        action = unescape(re.search(r'action="([^"]+)"', html).group(1))
        fields = {name: unescape(value) for name, value in re.findall(r'name="(\w+)" value="([^"]*)"', html)}
        return action, fields

    # --- the HTTP side ------------------------------------------------------------------------------

    def answer(self, handler, method):
        parts = urlsplit(handler.path)
        length = int(handler.headers.get("Content-Length") or 0)
        body = handler.rfile.read(length).decode() if length else ""
        route = (method, re.sub(r"/\d+", "/N", parts.path))
        status, payload, kind, *extra = {
            ("GET", "/jwks"): self.jwks,
            ("GET", "/auth"): self.auth,
            ("GET", "/course"): self.course_page,
            ("POST", "/token"): self.token,
            ("GET", "/lineitems"): self.list_line_items,
            ("GET", "/memberships"): self.memberships,
            ("POST", "/lineitems"): self.create_line_item,
            ("POST", "/lineitems/N/scores"): self.score,
            ("POST", "/deep-link-return"): self.deep_link_return,
        }.get(route, lambda *a: (404, "not found", "text/plain"))(parts, body, handler.headers)
        data = payload.encode() if isinstance(payload, str) else json.dumps(payload).encode()
        handler.send_response(status)
        handler.send_header("Content-Type", kind)
        handler.send_header("Content-Length", str(len(data)))
        for name, value in (extra[0] if extra else {}).items():
            handler.send_header(name, value)
        handler.end_headers()
        handler.wfile.write(data)

    def jwks(self, parts, body, headers):
        return 200, {"keys": [json.loads(self.key.export_public())]}, "application/json"

    def auth(self, parts, body, headers):
        query = {k: v[0] for k, v in parse_qs(parts.query).items()}
        if query.get("client_id") != self.client_id or query.get("response_type") != "id_token":
            return 400, "bad request", "text/plain"
        claims, options = self.pending.pop(query["login_hint"])
        token = self.id_token(claims, options.get("nonce", query["nonce"]), **options.get("token", {}))
        html = (
            f'<form method="post" action="{query["redirect_uri"]}">'
            f'<input type="hidden" name="id_token" value="{token}">'
            f'<input type="hidden" name="state" value="{query["state"]}"></form>'
            "<script>document.forms[0].submit()</script>"  # as a platform's page does, in a browser
        )
        return 200, html, "text/html"

    def course_page(self, parts, body, headers):
        """A course's page that opens the tool in an iframe, as Canvas does (``src``: where)."""
        src = escape(parse_qs(parts.query)["src"][0])
        html = (
            f'<h1>Science 101</h1><iframe id="tool" title="Stormwise" src="{src}" width="1200" height="700"></iframe>'
        )
        return 200, html, "text/html"

    def _tool_signed(self, token, audience):
        key = jwt.PyJWKSet.from_dict(self.tool_jwks).keys[0]
        return jwt.decode(token, key.key, algorithms=["RS256"], audience=audience)

    def token(self, parts, body, headers):
        form = {k: v[0] for k, v in parse_qs(body).items()}
        try:
            claims = self._tool_signed(form["client_assertion"], f"{self.url}/token")
        except (jwt.InvalidTokenError, KeyError):
            return 401, {"error": "invalid_client"}, "application/json"
        if claims["sub"] != self.client_id:
            return 401, {"error": "invalid_client"}, "application/json"
        token = secrets.token_hex(16)
        self.tokens[token] = set(form.get("scope", "").split())
        return 200, {"access_token": token, "token_type": "Bearer", "expires_in": 3600}, "application/json"

    def _authorized(self, headers, scope=None):
        granted = self.tokens.get(headers.get("Authorization", "").removeprefix("Bearer "))
        return granted is not None and (scope is None or scope in granted)

    def memberships(self, parts, body, headers):
        """The course's member list, a page at a time, to a token granted the membership scope."""
        if not self._authorized(headers, NRPS_SCOPE):
            return 401, {"error": "invalid_token"}, "application/json"
        with self.lock:
            if self.membership_failures:
                self.membership_failures -= 1
                return 500, "busy", "text/plain"
        page = int(parse_qs(parts.query).get("page", ["1"])[0])
        start = (page - 1) * self.members_per_page
        members = []
        for sub, role, status in MEMBERS[start : start + self.members_per_page]:
            member = {"user_id": sub, "roles": [role], "status": status}
            if self.share_names:
                person = PEOPLE[sub]
                given, family = person["name"].split()
                member.update(name=person["name"], given_name=given, family_name=family, email=person["email"])
            members.append(member)
        more = {}
        if start + self.members_per_page < len(MEMBERS):
            more["Link"] = f'<{self.url}/memberships?page={page + 1}>; rel="next"'
        container = {
            "id": f"{self.url}/memberships",
            "context": {"id": self.context_id, "label": "SCI-101", "title": "Science 101"},
            "members": members,
        }
        return 200, container, "application/vnd.ims.lti-nrps.v2.membershipcontainer+json", more

    def list_line_items(self, parts, body, headers):
        if not self._authorized(headers):
            return 401, "no", "text/plain"
        return 200, list(self.line_items.values()), "application/vnd.ims.lis.v2.lineitemcontainer+json"

    def create_line_item(self, parts, body, headers):
        if not self._authorized(headers):
            return 401, "no", "text/plain"
        with self.lock:
            item = {**json.loads(body), "id": f"{self.url}/lineitems/{len(self.line_items) + 1}"}
            self.line_items[item["id"]] = item
        return 201, item, "application/vnd.ims.lis.v2.lineitem+json"

    def score(self, parts, body, headers):
        if not self._authorized(headers):
            return 401, "no", "text/plain"
        with self.lock:
            if self.score_failures:
                self.score_failures -= 1
                return 500, "busy", "text/plain"
            self.scores.append((self.url + parts.path.removesuffix("/scores"), json.loads(body)))
        return 200, "", "application/json"

    def deep_link_return(self, parts, body, headers):
        form = {k: v[0] for k, v in parse_qs(body).items()}
        message = self._tool_signed(form["JWT"], self.issuer)
        assert message[CLAIM + "message_type"] == "LtiDeepLinkingResponse"
        assert message[CLAIM + "deployment_id"] == self.deployment_id
        assert message[DL_CLAIM + "data"] == "opaque-platform-data"
        for item in message[DL_CLAIM + "content_items"]:
            item["url_id"] = len(self.deep_link_returns) + 1
            if "lineItem" in item:  # the platform makes the gradebook column, bound to the link
                line = {**item["lineItem"], "id": f"{self.url}/lineitems/{len(self.line_items) + 1}"}
                self.line_items[line["id"]] = line
                item["lineitem_url"] = line["id"]
            self.deep_link_returns.append(item)
        return 200, "<p>Added.</p>", "text/html"


def login_params(platform, hint, target, **extra):
    return {
        "iss": platform.issuer,
        "login_hint": hint,
        "target_link_uri": target,
        "client_id": platform.client_id,
        "lti_message_hint": "hint",
        **extra,
    }


def query_of(url):
    return {k: v[0] for k, v in parse_qs(urlsplit(url).query).items()}


__all__ = ["Platform", "INSTRUCTOR", "LEARNER", "MEMBERS", "NRPS_SCOPE", "login_params", "query_of", "urlencode"]
