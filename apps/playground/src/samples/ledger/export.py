"""CSV export of invoices for the accounting system (one row per line item, then a totals row)."""
from __future__ import annotations

import csv
import io
from typing import Iterable

from .invoice import Invoice

HEADER = ["invoice", "sku", "description", "quantity", "unit_price", "net", "currency"]


def rows(invoice: Invoice) -> Iterable[list[str]]:
    for item in invoice.items:
        yield [
            invoice.number,
            item.sku,
            item.description,
            str(item.quantity),
            f"{item.unit_price.amount:.2f}",
            f"{item.net().rounded().amount:.2f}",
            invoice.currency,
        ]
    yield [invoice.number, "TOTAL", "", "", "", f"{invoice.total().amount:.2f}", invoice.currency]


def to_csv(invoices: Iterable[Invoice], delimiter: str = ";") -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, delimiter=delimiter, lineterminator="\n")
    writer.writerow(HEADER)
    for inv in invoices:
        writer.writerows(rows(inv))
    return buf.getvalue()
