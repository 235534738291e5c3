/**
 * The "History compaction" sample: an agent session on the ledger package (samples/ledger),
 * written for the playground. Tool outputs are file reads, a directory listing, a grep and two
 * test logs; the later user turn states the goal that task-aware strategies score against.
 */
import type { Message } from '@ctxprune/core';
import { LEDGER_FILES } from './ledgerRepo';

const README = `# ledger

Invoicing for the shop back office: invoices, VAT by region, discount codes and the CSV export
that the accounting system imports every night.

## Setup

    python -m venv .venv
    . .venv/bin/activate
    pip install -e '.[dev]'
    docker compose up -d postgres      # the export tests need it

Copy \`.env.example\` to \`.env\` and set DATABASE_URL. The export job reads invoices from the
\`billing\` schema; migrations live in \`migrations/\` and run with \`alembic upgrade head\`.

## Layout

- \`ledger/money.py\` — Money (Decimal + currency)
- \`ledger/tax.py\` — VAT rates per region, reduced rates per category
- \`ledger/discounts.py\` — percentage and fixed discount codes
- \`ledger/invoice.py\` — invoices and their totals
- \`ledger/export.py\` — the nightly CSV export
- \`tests/\` — pytest suite; \`tests/export/\` needs the database

## Conventions

Format with \`ruff format\`, lint with \`ruff check\`, type-check with \`mypy --strict ledger\`.
Commit messages follow the team template (component: summary). Release notes are collected in
CHANGELOG.md under "Unreleased". The CSV layout is a contract with accounting: columns may be added
at the end only, and the delimiter stays ";".

## Deploying

The export runs as a Kubernetes CronJob at 02:00 UTC (see deploy/cronjob.yaml). Failed runs page the
on-call engineer; rerun a day with \`python -m ledger.export --date YYYY-MM-DD\`. Logs go to the
\`ledger-export\` index; dashboards are linked from the team wiki.
`;

const LS = `.
├── README.md
├── CHANGELOG.md
├── pyproject.toml
├── deploy/
│   └── cronjob.yaml
├── ledger/
│   ├── __init__.py
│   ├── discounts.py
│   ├── export.py
│   ├── invoice.py
│   ├── money.py
│   └── tax.py
├── migrations/
│   ├── env.py
│   └── versions/ (14 files)
└── tests/
    ├── conftest.py
    ├── export/ (6 files)
    └── test_invoice.py`;

const TEST_FOCUSED = `$ pytest tests/test_invoice.py -q
..F.                                                                     [100%]
=================================== FAILURES ===================================
_____________ test_percentage_discount_before_tax_matches_ledger ______________

    def test_percentage_discount_before_tax_matches_ledger():
        inv = Invoice("INV-2", "DE", discount=Discount("SPRING15", percent=Decimal(15)))
        inv.add(item("lamp", "19.99"))
        inv.add(item("bulb", "3.33", 3))
        # Ledger: (29.98 - 4.497) * 1.19 = 30.32477 -> 30.32
>       assert str(inv.total()) == "30.32 EUR"
E       AssertionError: assert '30.33 EUR' == '30.32 EUR'
E         - 30.32 EUR
E         + 30.33 EUR

tests/test_invoice.py:25: AssertionError
=========================== short test summary info ============================
FAILED tests/test_invoice.py::test_percentage_discount_before_tax_matches_ledger
1 failed, 3 passed in 0.21s`;

const GREP = `$ grep -rn "rounded()" ledger/
ledger/discounts.py:24:    return off.rounded()
ledger/export.py:22:            f"{item.net().rounded().amount:.2f}",
ledger/invoice.py:38:            total = total + item.net().rounded()
ledger/invoice.py:49:            tax = tax + tax_on(discounted, self.region, item.category).rounded()
ledger/invoice.py:53:        return (self.subtotal() - self.discount_total() + self.tax_total()).rounded()
ledger/money.py:40:    def rounded(self) -> "Money":`;

const exportTests = [
  'test_header_columns', 'test_delimiter_is_semicolon', 'test_one_row_per_item', 'test_totals_row_last',
  'test_quantity_is_integer_text', 'test_unit_price_two_decimals', 'test_currency_column', 'test_empty_invoice_has_totals_row',
  'test_unicode_description', 'test_many_invoices_keep_order', 'test_nightly_job_reads_billing_schema',
  'test_nightly_job_skips_drafts', 'test_rerun_for_date', 'test_rerun_is_idempotent',
];
const TEST_ALL = [
  '$ pytest -q -rA',
  'tests/test_invoice.py::test_total_without_discount PASSED',
  'tests/test_invoice.py::test_percentage_discount_before_tax_matches_ledger FAILED',
  'tests/test_invoice.py::test_reduced_rate_for_books PASSED',
  'tests/test_invoice.py::test_currency_mismatch_is_rejected PASSED',
  ...exportTests.map((t, i) => `tests/export/test_csv.py::${t} ${i >= 10 ? 'ERROR' : 'PASSED'}`),
  '==================================== ERRORS ====================================',
  '_____________ ERROR at setup of test_nightly_job_reads_billing_schema _____________',
  'sqlalchemy.exc.OperationalError: (psycopg.OperationalError) connection to server at "localhost" (127.0.0.1),',
  'port 5432 failed: Connection refused. Is the server running on that host and accepting TCP/IP connections?',
  '(Background on this error at: https://sqlalche.me/e/20/e3q8)',
  'tests/export/conftest.py:18: in db',
  '    engine.connect()',
  '=========================== short test summary info ============================',
  'FAILED tests/test_invoice.py::test_percentage_discount_before_tax_matches_ledger - AssertionError',
  ...exportTests.slice(10).map((t) => `ERROR tests/export/test_csv.py::${t} - sqlalchemy.exc.OperationalError`),
  `1 failed, ${3 + 10} passed, 4 errors in 3.87s`,
].join('\n');

const read = (path: string) => `$ cat ${path}\n${LEDGER_FILES[path]}`;

export const TRANSCRIPT: Message[] = [
  {
    id: 'system',
    role: 'system',
    content:
      'You are a coding agent working in a Python repository. Use the tools (list_dir, read_file, grep, run_tests, edit_file) to investigate before editing. Keep changes minimal, run the relevant tests after every edit, and explain what you changed.',
  },
  {
    id: 'user-task',
    role: 'user',
    content: 'Customers report invoice totals that are one cent off when they use a discount code. Can you look into it?',
  },
  { id: 'a-explore', role: 'assistant', content: 'I will start with the repository layout and the README.' },
  { id: 'tool-ls', role: 'tool', toolName: 'list_dir', content: LS },
  { id: 'tool-readme', role: 'tool', toolName: 'read_file', content: `$ cat README.md\n${README}` },
  { id: 'a-tests', role: 'assistant', content: 'The invoice logic is in ledger/invoice.py. Running the invoice tests first to reproduce.' },
  { id: 'tool-test-focused', role: 'tool', toolName: 'run_tests', content: TEST_FOCUSED },
  { id: 'a-read-invoice', role: 'assistant', content: 'Reproduced: 30.33 instead of 30.32 with a 15% discount. Reading Invoice.total.' },
  { id: 'tool-invoice', role: 'tool', toolName: 'read_file', content: read('ledger/invoice.py') },
  { id: 'a-grep', role: 'assistant', content: 'Several places round. Searching for every call to rounded().' },
  { id: 'tool-grep', role: 'tool', toolName: 'grep', content: GREP },
  { id: 'a-export', role: 'assistant', content: 'Checking whether the CSV export recomputes totals on its own.' },
  { id: 'tool-export', role: 'tool', toolName: 'read_file', content: read('ledger/export.py') },
  { id: 'tool-discounts', role: 'tool', toolName: 'read_file', content: read('ledger/discounts.py') },
  { id: 'tool-money', role: 'tool', toolName: 'read_file', content: read('ledger/money.py') },
  { id: 'tool-test-all', role: 'tool', toolName: 'run_tests', content: TEST_ALL },
  {
    id: 'a-diagnosis',
    role: 'assistant',
    content:
      'Diagnosis: apply_percentage rounds the discount to 4.50 and tax_total rounds the tax of each item, so the total is rounded three times. The export errors are only the missing database.',
  },
  {
    id: 'user-goal',
    role: 'user',
    content:
      'Finance says the ledger rounds only the final total (banker\'s rounding). Fix Invoice.total and the discount rounding so test_percentage_discount_before_tax_matches_ledger passes; leave the CSV export alone.',
  },
  {
    id: 'a-plan',
    role: 'assistant',
    content: 'Plan: keep full precision in discount_amount and tax_total, round once in Invoice.total, then rerun tests/test_invoice.py.',
  },
];
