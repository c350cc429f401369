"""The switches Chromium is launched with for the browser tests: headless (Playwright's
own), no sandbox, no GPU, nothing fetched in the background, and no browser page of its
own that no test looks at."""

from __future__ import annotations

import re
from pathlib import Path

# Chromium heeds only the last --disable-features, so this one repeats the features
# Playwright turns off (its chromiumSwitches; test_advisor_e2e.py checks the list against
# the installed Playwright) and adds the address bar's popup, a page of the browser's own
# that each new context would otherwise load in a renderer of its own: half the cost of
# opening a page, and never seen by a test.
PLAYWRIGHT_DISABLED_FEATURES = [
    "AvoidUnnecessaryBeforeUnloadCheckSync", "DestroyProfileOnBrowserClose", "HttpsUpgrades",
    "HttpsFirstBalancedModeAutoEnable", "LensOverlay", "MediaRouter", "PaintHolding",
    "ThirdPartyStoragePartitioning", "AvoidCorsURLLoaderRestartOnRedirect",
    "TcpPortRandomizationWin", "OptimizationHints", "NetworkTimeServiceQuerying", "AimEnabled",
    "PreconnectToSearch", "msForceBrowserSignIn", "msEdgeUpdateLaunchServicesPreferredVersion"]
UNSEEN_FEATURES = ["WebUIOmniboxPopup", "WebUIOmniboxAimPopup"]
REQUIRED = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--no-first-run", "--disable-component-update", "--disable-sync"]


def chromium_args() -> list[str]:
    """The switches to launch Chromium with, beside Playwright's own."""
    return [*REQUIRED,
            "--disable-features=" + ",".join(PLAYWRIGHT_DISABLED_FEATURES + UNSEEN_FEATURES)]


def playwright_disabled_features() -> list[str]:
    """The features the installed Playwright turns off in Chromium, read from its driver
    (empty when the driver no longer lists them where it did)."""
    import playwright
    bundle = Path(playwright.__file__).parent / "driver" / "package" / "lib" / "coreBundle.js"
    found = re.search(r"disabledFeatures = \[(.*?)\]", bundle.read_text(encoding="utf-8"),
                      re.S) if bundle.exists() else None
    return re.findall(r'^\s*"(\w+)"', found.group(1), re.M) if found else []
