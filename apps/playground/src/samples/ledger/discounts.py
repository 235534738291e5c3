"""Discount codes: a percentage off, or a fixed amount off the subtotal."""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from .money import Money, zero


@dataclass(frozen=True)
class Discount:
    code: str
    percent: Decimal | None = None
    fixed: Money | None = None

    def __post_init__(self) -> None:
        if (self.percent is None) == (self.fixed is None):
            raise ValueError("a discount is either a percentage or a fixed amount")


def apply_percentage(subtotal: Money, percent: Decimal) -> Money:
    """The amount taken off for `percent` (0-100) of the subtotal."""
    off = subtotal.times(percent / Decimal(100))
    return off.rounded()


def discount_amount(subtotal: Money, discount: Discount | None) -> Money:
    if discount is None:
        return zero(subtotal.currency)
    if discount.percent is not None:
        return apply_percentage(subtotal, discount.percent)
    assert discount.fixed is not None
    # A fixed discount never takes the subtotal below zero.
    if discount.fixed.amount > subtotal.amount:
        return subtotal
    return discount.fixed
