/**
 * The "Context cards" sample: a small invoicing package written for the playground (not taken
 * from any project), plus the memories and rules an agent team might have collected about it.
 */
import type { MemoryInput } from '@ctxprune/core';
import moneyPy from './ledger/money.py?raw';
import taxPy from './ledger/tax.py?raw';
import discountsPy from './ledger/discounts.py?raw';
import invoicePy from './ledger/invoice.py?raw';
import exportPy from './ledger/export.py?raw';
import testInvoicePy from './ledger/test_invoice.py?raw';

export const LEDGER_FILES: Record<string, string> = {
  'ledger/money.py': moneyPy,
  'ledger/tax.py': taxPy,
  'ledger/discounts.py': discountsPy,
  'ledger/invoice.py': invoicePy,
  'ledger/export.py': exportPy,
  'tests/test_invoice.py': testInvoicePy,
};

export const LEDGER_MEMORIES: MemoryInput[] = [
  {
    id: 'memory:round-once',
    type: 'memory',
    title: 'Round once, at the end',
    content:
      'Finance confirmed: the ledger rounds only the invoice total. Do not round each line item or the discount; keep Decimal precision in subtotal, discount_total and tax_total.',
    about: ['ledger/invoice.py'],
    // Contradicts the older team rule on per-line rounding (rules get ids rule:<position>).
    conflictsWith: ['rule:6'],
  },
  {
    id: 'failure:per-line-rounding',
    type: 'failure',
    title: 'Per-line rounding attempt failed',
    content:
      'A previous fix rounded the discount per line item in discounts.apply_percentage; test_percentage_discount_before_tax_matches_ledger still failed by one cent and test_reduced_rate_for_books broke.',
    about: ['ledger/discounts.py'],
  },
  {
    id: 'strategy:focused-tests',
    type: 'strategy',
    title: 'Run the invoice tests first',
    content: 'Run pytest tests/test_invoice.py -k "discount or rounding" before the full suite; the export tests need a database and take minutes.',
  },
  {
    id: 'memory:tax-rates-yaml',
    type: 'memory',
    title: 'Where tax rates live',
    content: 'Tax rates are read from config/tax_rates.yaml at startup.',
    stale: true,
    confidence: 0.4,
  },
  {
    id: 'api:money-rounded',
    type: 'api',
    title: 'Money.rounded',
    content: "Money.rounded() quantizes to CENT with ROUND_HALF_EVEN (banker's rounding); Money.times(factor) keeps full precision.",
  },
];

export const LEDGER_RULES: string[] = [
  'Never use float for money amounts; build them with Money.of from str or Decimal.',
  'Round each line item to cents before summing the invoice subtotal.',
  'Every change to invoice totals needs a test in tests/test_invoice.py that states the ledger value.',
];

export const LEDGER_TASK =
  'Invoice.total is one cent off when a percentage discount is applied before tax (test_percentage_discount_before_tax_matches_ledger); fix the rounding';
