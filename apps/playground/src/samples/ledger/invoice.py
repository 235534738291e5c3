"""Invoices: line items, a discount, VAT by region, and the totals the ledger books."""
from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from .discounts import Discount, discount_amount
from .money import Money, zero
from .tax import tax_on


@dataclass(frozen=True)
class LineItem:
    sku: str
    description: str
    unit_price: Money
    quantity: int = 1
    category: str | None = None

    def net(self) -> Money:
        return self.unit_price.times(self.quantity)


@dataclass
class Invoice:
    number: str
    region: str
    currency: str = "EUR"
    items: list[LineItem] = field(default_factory=list)
    discount: Discount | None = None

    def add(self, item: LineItem) -> None:
        if item.unit_price.currency != self.currency:
            raise ValueError(f"item {item.sku} is in {item.unit_price.currency}, invoice in {self.currency}")
        self.items.append(item)

    def subtotal(self) -> Money:
        total = zero(self.currency)
        for item in self.items:
            total = total + item.net().rounded()
        return total

    def discount_total(self) -> Money:
        return discount_amount(self.subtotal(), self.discount)

    def tax_total(self) -> Money:
        share = self._discount_share()
        tax = zero(self.currency)
        for item in self.items:
            discounted = item.net().times(Decimal(1) - share)
            tax = tax + tax_on(discounted, self.region, item.category).rounded()
        return tax

    def total(self) -> Money:
        return (self.subtotal() - self.discount_total() + self.tax_total()).rounded()

    def _discount_share(self) -> Decimal:
        sub = self.subtotal()
        if sub.is_zero():
            return Decimal(0)
        return self.discount_total().amount / sub.amount
