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
