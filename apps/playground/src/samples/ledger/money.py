"""Money amounts as Decimal with an ISO currency; never floats."""
from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal

CENT = Decimal("0.01")


class CurrencyMismatch(ValueError):
    pass


@dataclass(frozen=True)
class Money:
    amount: Decimal
    currency: str = "EUR"

    @classmethod
    def of(cls, value: str | int | Decimal, currency: str = "EUR") -> "Money":
        if isinstance(value, float):
            raise TypeError("Money.of takes str, int or Decimal, not float")
        return cls(Decimal(value), currency)

    def _same(self, other: "Money") -> None:
        if other.currency != self.currency:
            raise CurrencyMismatch(f"{self.currency} vs {other.currency}")

    def __add__(self, other: "Money") -> "Money":
        self._same(other)
        return Money(self.amount + other.amount, self.currency)

    def __sub__(self, other: "Money") -> "Money":
        self._same(other)
        return Money(self.amount - other.amount, self.currency)

    def times(self, factor: Decimal | int) -> "Money":
        return Money(self.amount * Decimal(factor), self.currency)

    def rounded(self) -> "Money":
        """Banker's rounding to the cent, the ledger's only rounding rule."""
        return Money(self.amount.quantize(CENT, rounding=ROUND_HALF_EVEN), self.currency)

    def is_zero(self) -> bool:
        return self.amount == 0

    def __str__(self) -> str:
        return f"{self.amount:.2f} {self.currency}"


def zero(currency: str = "EUR") -> Money:
    return Money(Decimal(0), currency)
