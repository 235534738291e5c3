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

# The revision each repository is mined from (its mirror's HEAD when training/manifest.tsv was written):
# a newer snapshot of a mirror gives the same examples, so a rerun reproduces the manifest.
PINNED = {
    'pallets/click': '2c8cd3ac958a7eb316d67f2d316c27086c4c0369',
    'pallets/jinja': '5ef70112a1ff19c05324ff889dd30405b1002044',
    'pallets/werkzeug': '1b00618e787f40dfb21eba29caf8f8be7c8e1d93',
    'encode/starlette': 'cb8f84f5284dc301ca7a31eb732b9e140769dd48',
    'python-attrs/attrs': 'c1dc5dcba16ed827aa6dcad896b41a3afedb4e32',
    'tornadoweb/tornado': 'e530031405e2154654dedc4c84d5656b557ea310',
    'Textualize/rich': '42899d8a0a96b121a514516f4be9db44ff7aeaf3',
    'aio-libs/aiohttp': '495e778360d1924da63e16dba0f0d76baf56a56a',
    'psf/black': '8947c48ef2077c3a301b03c1e814dc2e3f78436e',
    'marshmallow-code/marshmallow': '341b927f219205704728c05cd61f04d7e9727523',
    'httpie/cli': '5b604c37c6c67e18e7c3e9aee6c88a8c22b98345',
    'expressjs/express': 'a3714473feb3d2908add734d340e7755fd85e0a3',
    'fastify/fastify': '83e69762aff047940b376fc2a266d143499ef727',
    'rollup/rollup': '89bda2cd8e9def2ea037e7dbffaf392ce9f1ddcb',
    'date-fns/date-fns': 'dd66398305c2b015fba3c1b3d31ccff42ee8d4cf',
    'trpc/trpc': '340811ba5320637fbaf48fccf3dbfdd258bd34db',
    'typeorm/typeorm': '281bfba42a5813b106bcf5ba79bc7f7251bd1e73',
    'vuejs/core': 'e2bede96134f757aad5c5b33ac9be055022dbfc8',
    'colinhacks/zod': 'e516c3baf22615e20934116abebfed6c000222c2',
    'axios/axios': '23a25af0688d1db2c396deb09229d2271cc24f6c',
}

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
    assert len(PINNED.get(_repo, '')) == 40, f'{_repo}: no pinned revision'
