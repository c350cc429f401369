"""One score sent to a platform's gradebook with Assignment and Grade Services, through
PyLTI1p3's service connector: a token got with the tool's signed assertion, then the
score posted to the placed link's grade column."""

from __future__ import annotations

import requests
from pylti1p3.assignments_grades import AssignmentsGradesService
from pylti1p3.exception import LtiException, LtiServiceException
from pylti1p3.grade import Grade
from pylti1p3.lineitem import LineItem
from pylti1p3.registration import Registration
from pylti1p3.service_connector import ServiceConnector

from .keys import ToolKey
from .platforms import Platform

SECONDS = 10.0  # for connecting and for reading, each


class PostFailed(Exception):
    """A score the platform did not take; the message says why."""


class TimedSession(requests.Session):
    """A requests session whose every request gives up after SECONDS (PyLTI1p3 sets
    none)."""

    def request(self, *args, **kwargs):
        kwargs.setdefault("timeout", SECONDS)
        return super().request(*args, **kwargs)


def connector(platform: Platform, key: ToolKey, session=None) -> ServiceConnector:
    """What asks *platform* for service tokens on the tool's behalf."""
    registration = (Registration().set_issuer(platform.issuer)
                    .set_client_id(platform.client_id)
                    .set_auth_token_url(platform.token_url)
                    .set_tool_private_key(key.private_pem)
                    .set_tool_public_key(key.public_pem))
    return ServiceConnector(registration, session or TimedSession())


def post(platform: Platform, key: ToolKey, service: dict, link: str, score: dict,
         session=None) -> str:
    """Post *score* (AGS score fields) to the grade column of the link *link*: the one
    the launch named, else the link's own found among the course's (made when there is
    none): the column's address.

    :raises PostFailed: saying what the platform answered, or why it could not be asked.
    """
    if not service.get("lineitem") and not service.get("lineitems"):
        raise PostFailed("the LMS's launch named neither a grade column nor the course's "
                         "columns: allow the tool Assignment and Grade Services, and place "
                         "the activity again")
    grades = AssignmentsGradesService(connector(platform, key, session), service)
    grade = (Grade().set_user_id(score["userId"]).set_score_given(score["scoreGiven"])
             .set_score_maximum(score["scoreMaximum"]).set_timestamp(score["timestamp"])
             .set_activity_progress("Completed").set_grading_progress("FullyGraded")
             .set_comment(score["comment"]))
    try:
        column = service.get("lineitem") or grades.find_or_create_lineitem(
            LineItem().set_resource_link_id(link).set_label(score["label"])
            .set_score_maximum(score["scoreMaximum"]), find_by="resource_link_id").get_id()
        grades.put_grade(grade, LineItem().set_id(column))
    except LtiServiceException as error:
        response = error.response
        raise PostFailed(f"{platform.issuer} answered HTTP {response.status_code} "
                         f"({response.text[:160].strip()})") from None
    except LtiException as error:
        raise PostFailed(f"{error} (the LMS did not let the tool find or make the link's "
                         f"grade column: allow the tool Assignment and Grade Services)"
                         ) from None
    except requests.RequestException as error:
        raise PostFailed(f"{platform.issuer} could not be reached ("
                         f"{type(error).__name__})") from None
    except (KeyError, TypeError, ValueError) as error:
        raise PostFailed(f"{platform.issuer} answered what the grade service does not "
                         f"describe ({type(error).__name__} {str(error)[:80]}); its "
                         f"vendor should hear of it") from None
    return column
