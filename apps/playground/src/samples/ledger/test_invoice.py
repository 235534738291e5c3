from decimal import Decimal

import pytest

from ledger.discounts import Discount
from ledger.invoice import Invoice, LineItem
from ledger.money import Money


def item(sku: str, price: str, qty: int = 1, category: str | None = None) -> LineItem:
    return LineItem(sku, sku.title(), Money.of(price), qty, category)


def test_total_without_discount():
    inv = Invoice("INV-1", "DE")
    inv.add(item("pen", "2.50", 4))
    assert str(inv.total()) == "11.90 EUR"


def test_percentage_discount_before_tax_matches_ledger():
    inv = Invoice("INV-2", "DE", discount=Discount("SPRING15", percent=Decimal(15)))
    inv.add(item("lamp", "19.99"))
    inv.add(item("bulb", "3.33", 3))
    # Ledger: (29.98 - 4.497) * 1.19 = 30.32477 -> 30.32
    assert str(inv.total()) == "30.32 EUR"


def test_reduced_rate_for_books():
    inv = Invoice("INV-3", "DE")
    inv.add(item("novel", "12.00", category="books"))
    assert str(inv.total()) == "12.84 EUR"


def test_currency_mismatch_is_rejected():
    inv = Invoice("INV-4", "FR")
    with pytest.raises(ValueError):
        inv.add(LineItem("mug", "Mug", Money.of("8.00", "USD")))
