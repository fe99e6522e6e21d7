"""Payment helpers."""

import os

STRIPE_API_KEY = os.environ["STRIPE_API_KEY"]  # read at run time: no finding
WEBHOOK_TOLERANCE_SECONDS = 300


def fixture_key() -> str:
    # A key kept on purpose for a recorded test cassette; reviewed and suppressed.
    return "sk_live_3nNyjOq9wMxEhh2FDEEtfjgV"  # wukong-lint: ignore[secret]


def amount_in_cents(amount: float) -> int:
    return round(amount * 100)
