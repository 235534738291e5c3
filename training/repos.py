"""Training repositories (fetched mirrors) and the split. Validation = whole held-out repositories."""

# (owner/name, split)
REPOS = [
    # Python
    ('pallets/click', 'train'),
    ('pallets/jinja', 'train'),
    ('pallets/werkzeug', 'train'),
    ('encode/starlette', 'train'),
    ('python-attrs/attrs', 'train'),
    ('tornadoweb/tornado', 'train'),
    ('Textualize/rich', 'train'),
    ('aio-libs/aiohttp', 'train'),
    ('psf/black', 'train'),
    ('marshmallow-code/marshmallow', 'val'),
    ('httpie/cli', 'val'),
    # TypeScript / JavaScript
    ('expressjs/express', 'train'),
    ('fastify/fastify', 'train'),
    ('rollup/rollup', 'train'),
    ('date-fns/date-fns', 'train'),
    ('trpc/trpc', 'train'),
    ('typeorm/typeorm', 'train'),
    ('vuejs/core', 'train'),
    ('colinhacks/zod', 'val'),
    ('axios/axios', 'val'),
]

# The benchmark's repositories and the other SWE-bench repositories: never trained on.
FORBIDDEN = {
    'psf/requests', 'pallets/flask', 'encode/httpx', 'sindresorhus/got', 'vitejs/vite', 'pytest-dev/pytest',
    'pylint-dev/pylint', 'mwaskom/seaborn', 'astropy/astropy', 'pydata/xarray', 'sphinx-doc/sphinx',
    'sympy/sympy', 'django/django', 'scikit-learn/scikit-learn', 'matplotlib/matplotlib',
}

# Kept for independent evaluation (../shared/bench/RESERVED.md): never fetched, mined, trained or tuned on.
RESERVED = {
    'honojs/hono', 'tanstack/query', 'mobxjs/mobx', 'vercel/swr', 'pmndrs/zustand', 'immerjs/immer',
    'reduxjs/redux-toolkit', 'pydantic/pydantic', 'encode/django-rest-framework', 'textualize/textual',
    'pycqa/flake8',
}
FORBIDDEN_LOWER = {r.lower() for r in FORBIDDEN} | RESERVED

# Repositories tried as training data and not shipped (model card): kept out of validation too.
TRIED_FOR_TRAINING = {'fastapi/fastapi', 'scrapy/scrapy', 'python-poetry/poetry', 'sveltejs/svelte',
                      'eslint/eslint', 'jestjs/jest', 'facebook/jest'}

for _repo, _split in REPOS:
    assert _repo.lower() not in FORBIDDEN_LOWER, _repo
