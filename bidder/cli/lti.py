"""`bidder lti`: register the LMSes the site trusts, and print what to paste into them."""

from __future__ import annotations

import click

from .files import Failure


def site_doors(site: str) -> list[tuple[str, str]]:
    """The tool's addresses an LMS asks for, by the names LMSes give them."""
    site = site.rstrip("/")
    return [("OIDC login URL (initiate login)", f"{site}/lti/login"),
            ("Target link / redirect URL (launch)", f"{site}/lti/launch"),
            ("Deep linking URL (content selection)", f"{site}/lti/launch"),
            ("Public keyset URL (JWKS)", f"{site}/lti/jwks"),
            ("Services", "Assignment and Grade Services (line items, scores)"),
            ("Placement", "Course link selection / assignment selection (deep linking)"),
            ("Privacy", "user id; name only if you want names in the live poll")]


def the_store():
    """The state store the served site uses (BIDDER_STATE_URL, else the instance
    folder's file)."""
    import os

    from ..web import instance_folder
    from ..web.settings import STATE_VARIABLE, default_state_url
    from ..web.state import open_store

    store = open_store(os.environ.get(STATE_VARIABLE) or default_state_url(
        str(instance_folder())))
    store.prepare()
    return store


@click.group(short_help="Register the site with an LMS (LTI 1.3).")
def lti() -> None:
    """bidder as an LTI 1.3 tool: print what to paste into the LMS (`bidder lti show`),
    then register the LMS with what it gave (`bidder lti add`). docs/lms.md explains it.

    \b
    Example:
      bidder lti show --site https://bidder.example.edu
      bidder lti add --issuer https://canvas.instructure.com --client-id 10000000000042 \\
          --login-url https://sso.canvaslms.com/api/lti/authorize_redirect \\
          --token-url https://sso.canvaslms.com/login/oauth2/token \\
          --jwks-url https://sso.canvaslms.com/api/lti/security/jwks --deployment 7:abc
    """


@lti.command(short_help="Print what to paste into the LMS.")
@click.option("--site", required=True, metavar="URL",
              help="The site's address as browsers reach it (https://...).")
def show(site: str) -> None:
    """Print the addresses the LMS's tool registration asks for."""
    for label, value in site_doors(site):
        click.echo(f"{label + ':':42} {value}")


@lti.command(short_help="Trust an LMS's registration.")
@click.option("--issuer", required=True, help="The platform's issuer (its iss).")
@click.option("--client-id", required=True, help="The client id the LMS gave the tool.")
@click.option("--login-url", required=True, help="The LMS's OIDC authorization URL.")
@click.option("--token-url", required=True, help="The LMS's OAuth2 access token URL.")
@click.option("--jwks-url", required=True, help="The LMS's public keyset (JWKS) URL.")
@click.option("--deployment", "deployments", multiple=True, required=True,
              help="A deployment id of the tool (repeat for several).")
def add(issuer: str, client_id: str, login_url: str, token_url: str, jwks_url: str,
        deployments: tuple[str, ...]) -> None:
    """Keep the LMS's registration in the site's state store, where every worker reads
    it; adding the same issuer and client id again replaces it."""
    from ..web.lti.platforms import Platform, PlatformError, register
    from ..web.state import StoreUnavailable

    try:
        platform = register(the_store(), Platform(issuer, client_id, login_url, token_url,
                                                  jwks_url, deployments))
    except (PlatformError, StoreUnavailable) as error:
        raise Failure(f"bidder lti add: {error}") from None
    click.echo(f"Registered {platform.issuer} (client id {platform.client_id}, "
               f"deployments {', '.join(platform.deployments)}).")


@lti.command(short_help="Send the scores waiting for a gradebook.")
def retry() -> None:
    """Try again every score whose wait is over (the site does so as launches come; run
    this from cron to send them when none do). Prints each score tried and how it stands.
    """
    import os

    from ..web import instance_folder
    from ..web.lti import grades
    from ..web.lti.keys import tool_key

    folder = os.environ.get("BIDDER_LTI_KEY_FOLDER") or str(instance_folder())
    for post in grades.retry_due(the_store(), tool_key(folder)):
        click.echo(f"{post.user} on {post.placement_ref}: {post.state}"
                   f"{' (' + post.why + ')' if post.why else ''}")


@lti.command(name="list", short_help="List the LMSes the site trusts.")
def listed() -> None:
    """Print each registration the site keeps."""
    from ..web.lti.platforms import registered

    for platform in registered(the_store()):
        click.echo(f"{platform.issuer}  client {platform.client_id}  deployments "
                   f"{', '.join(platform.deployments)}  keys {platform.key_set_url}")
