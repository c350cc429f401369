"""Whatever claims a signed launch carries, the check lets it in or refuses it saying
why: never another error (which would be a 500 page)."""

import json

import jwt
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jwcrypto.jwk import JWK

from bidder.web.lti import verify
from bidder.web.lti.claims import Launch
from bidder.web.lti.keys import made_pem
from bidder.web.lti.platforms import Platform, register
from bidder.web.lti.refusals import Refused
from bidder.web.state import store_of

from lti_platform import loaded

LTI = "https://purl.imsglobal.org/spec/lti/claim/"
PLATFORM = Platform("https://lms.example", "c1", "https://lms.example/auth",
                    "https://lms.example/token", "https://lms.example/jwks", ("d1",))
PEM = made_pem()
PUBLIC = {**json.loads(JWK.from_pem(PEM.encode()).export_public()), "kid": "k1"}
GOOD = {"iss": PLATFORM.issuer, "aud": "c1", "exp": 4_000_000_000, "iat": 1_000_000_000,
        "sub": "u1", "nonce": "n", LTI + "deployment_id": "d1",
        LTI + "message_type": "LtiResourceLinkRequest", LTI + "version": "1.3.0"}
VALUES = st.one_of(st.sampled_from(list(GOOD.values())), st.none(), st.booleans(),
                   st.integers(), st.text(max_size=5), st.lists(st.text(max_size=3),
                                                                max_size=3))


class KeySet:
    status_code, content = 200, json.dumps({"keys": [PUBLIC]}).encode()

    def json(self):
        return json.loads(self.content)


@given(changes=st.dictionaries(st.sampled_from([*GOOD, "azp", LTI + "roles"]), VALUES,
                               max_size=4))
@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_any_claims_are_let_in_or_refused_saying_why(lti_app, changes):
    store = store_of(lti_app)
    register(store, PLATFORM)
    body = {key: value for key, value in {**GOOD, **changes}.items() if value is not None}
    token = jwt.PyJWS().encode(json.dumps(body).encode(), loaded(PEM), algorithm="RS256",
                               headers={"kid": "k1"})  # as a forger would: any claim types
    try:
        found = verify.checked(store, token, "n", lambda url, timeout: KeySet())
    except Refused as refused:
        assert refused.status in (400, 401, 403) and refused.message
    else:
        assert isinstance(found, Launch) and found.user == str(body["sub"])
