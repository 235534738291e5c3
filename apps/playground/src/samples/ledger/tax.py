"""VAT rates by region, and the tax on a net amount."""
from __future__ import annotations

from decimal import Decimal

from .money import Money

# Standard rates; reduced rates are looked up by product category.
VAT_RATES: dict[str, Decimal] = {
    "DE": Decimal("0.19"),
    "FR": Decimal("0.20"),
    "NL": Decimal("0.21"),
    "IE": Decimal("0.23"),
}

REDUCED_RATES: dict[tuple[str, str], Decimal] = {
    ("DE", "books"): Decimal("0.07"),
    ("FR", "books"): Decimal("0.055"),
    ("NL", "food"): Decimal("0.09"),
}


class UnknownRegion(KeyError):
    pass


def vat_rate(region: str, category: str | None = None) -> Decimal:
    if category is not None and (region, category) in REDUCED_RATES:
        return REDUCED_RATES[(region, category)]
    try:
        return VAT_RATES[region]
    except KeyError:
        raise UnknownRegion(region) from None


def tax_on(net: Money, region: str, category: str | None = None) -> Money:
    """Tax on a net amount, unrounded: callers round once, on the total."""
    return net.times(vat_rate(region, category))
