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
    # added for issue #18 (data at scale)
    ('pypa/pip', 'train'),
    ('python/mypy', 'train'),
    ('scrapy/scrapy', 'train'),
    ('fastapi/fastapi', 'train'),
    ('python-poetry/poetry', 'train'),
    ('ipython/ipython', 'train'),
    ('celery/celery', 'train'),
    ('redis/redis-py', 'train'),
    ('Pylons/pyramid', 'train'),
    ('sanic-org/sanic', 'train'),
    ('networkx/networkx', 'train'),
    ('dask/dask', 'train'),
    ('yt-dlp/yt-dlp', 'train'),
    ('PyCQA/isort', 'train'),
    ('pre-commit/pre-commit', 'train'),
    ('mkdocs/mkdocs', 'train'),
    ('joke2k/faker', 'train'),
    ('getpelican/pelican', 'train'),
    ('MagicStack/asyncpg', 'train'),
    ('mongodb/mongo-python-driver', 'train'),
    ('pypa/setuptools', 'train'),
    ('pypa/virtualenv', 'train'),
    ('bottlepy/bottle', 'train'),
    ('streamlink/streamlink', 'train'),
    ('pypa/pipenv', 'train'),
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
    # added for issue #18 (data at scale)
    ('webpack/webpack', 'train'),
    ('sequelize/sequelize', 'train'),
    ('Automattic/mongoose', 'train'),
    ('graphql/graphql-js', 'train'),
    ('apollographql/apollo-client', 'train'),
    ('eslint/eslint', 'train'),
    ('jestjs/jest', 'train'),
    ('sveltejs/svelte', 'train'),
    ('pnpm/pnpm', 'train'),
    ('nodejs/undici', 'train'),
    ('websockets/ws', 'train'),
    ('jquery/jquery', 'train'),
    ('mozilla/pdf.js', 'train'),
    ('markedjs/marked', 'train'),
    ('markdown-it/markdown-it', 'train'),
    ('Leaflet/Leaflet', 'train'),
    ('statelyai/xstate', 'train'),
    ('typescript-eslint/typescript-eslint', 'train'),
    ('stylelint/stylelint', 'train'),
    ('postcss/postcss', 'train'),
    ('mochajs/mocha', 'train'),
    ('moment/luxon', 'train'),
    ('hapijs/hapi', 'train'),
    ('ajv-validator/ajv', 'train'),
    ('jsdom/jsdom', 'train'),
    ('pinojs/pino', 'train'),
    ('yargs/yargs', 'train'),
    ('tj/commander.js', 'train'),
]

# The data the shipped model (models/ctxprune-lamr.onnx) was trained on: the first 20 repositories
# (training/run_all.sh DATA=v1, its default); DATA=all mines every repository above (issue #18).
V1_REPOS = [
    'pallets/click', 'pallets/jinja', 'pallets/werkzeug', 'encode/starlette', 'python-attrs/attrs', 'tornadoweb/tornado',
    'Textualize/rich', 'aio-libs/aiohttp', 'psf/black', 'marshmallow-code/marshmallow', 'httpie/cli',
    'expressjs/express', 'fastify/fastify', 'rollup/rollup', 'date-fns/date-fns', 'trpc/trpc', 'typeorm/typeorm',
    'vuejs/core', 'colinhacks/zod', 'axios/axios',
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
    # issue #18: the mirrors' HEAD when they were fetched (2026-12-01)
    'pypa/pip': '6d309205789d368b2749d93fd6193d584811efd5',
    'python/mypy': '8b3e7d8b9f63543374e53d1c389ea443dd65bc46',
    'scrapy/scrapy': '11079cb1c85b9e75a39a7269943c69d1a975d485',
    'fastapi/fastapi': 'c3f316b7e814667e8ee81e03a7330d00ee61e45c',
    'python-poetry/poetry': 'f46702336862f30050d5c641d5ed6f7568ded793',
    'ipython/ipython': '7f0ee55684f08f5af18190aa58d4bb3018fb20d2',
    'celery/celery': '5dc781f0bd5f36186bfcc74e0a4f9f654452c69b',
    'redis/redis-py': '34817ce2a2accc893a81180fe737e0c4f5ac6b0c',
    'Pylons/pyramid': '5b13e4a61b479be17c1d97ab504154595813a8f8',
    'sanic-org/sanic': '785d77f8fe208576a48d339bd81d866021154092',
    'networkx/networkx': 'cfc6b79fc53f583aa15a79b2187ae30bd4f480ed',
    'dask/dask': '817e5ffc1208346630b111860571024b0c6ec9bd',
    'yt-dlp/yt-dlp': '81ecd58b1394793e6da9998cc19fdb45657f1685',
    'PyCQA/isort': '0cba6f6111a07cc05b167008dda0727ecca907c5',
    'pre-commit/pre-commit': 'a9bba55a3f74068b53f4bd4d831d7e05e34eae6c',
    'mkdocs/mkdocs': '2862536793b3c67d9d83c33e0dd6d50a791928f8',
    'joke2k/faker': '8ad78a632a4116e6392e6d5743524c683a2e02a1',
    'getpelican/pelican': 'c2149063585de9984cb1c1a9b9034061a431080b',
    'MagicStack/asyncpg': 'db8ecc2a38e16fb0c090aef6f5506547c2831c24',
    'mongodb/mongo-python-driver': 'ebc4bffcc842464e48a3edbd04802d1a42bc818a',
    'pypa/setuptools': '7d531288b7c8708d4cc186213da93eaf5d11833d',
    'pypa/virtualenv': 'df94b342b732f96859595104bebbcfa74a88616b',
    'bottlepy/bottle': '2a743a302a71460bfe4c0b8b7cb99a306b0328c6',
    'streamlink/streamlink': '5376d2e8851bd523e390a2141360afddccb5adba',
    'pypa/pipenv': '3f1b272abd51d7d7ab7f5935bb6b25da86e93e8b',
    'webpack/webpack': 'bc3e930f75e3f6ecbdf193a0dedf6067ea3a286b',
    'sequelize/sequelize': 'c7700944925914dd936e96ad2dabb4dbdf7e9477',
    'Automattic/mongoose': '3e212cec87dbf710216a3c6125121aefa60a4475',
    'graphql/graphql-js': 'a7db60beb22b0e417f9ed12215945c7fcb43246e',
    'apollographql/apollo-client': '54084bc22e92651cf153d03d0370b8dff3d1163f',
    'eslint/eslint': 'c27bc926e496985eb7911c09eb60914b2e4b5d0f',
    'jestjs/jest': '52db46e50404c993d3f10dd1481e861cc04ae22e',
    'sveltejs/svelte': '15720b16a5ef33e3e1f4301c77b94ec375070e73',
    'pnpm/pnpm': '36e5ae6ac8d03743442f083680fa3015e4a774b3',
    'nodejs/undici': '7eb7c8ec8f23acd9c3da93a286162f8c1dc68326',
    'websockets/ws': 'a2f4e7c046c2112bbce6fef39a083dac77d6f0d2',
    'jquery/jquery': '51eb576cca6ffce252dc152bf8e91d5230a0d887',
    'mozilla/pdf.js': '0f26334f9d6f96119f6e5164fb65832fbbde7344',
    'markedjs/marked': '681373ccc058b5dc93c1f63291d755d7d714c2fa',
    'markdown-it/markdown-it': '1e8ab89ca299351879169a79d2627fe3a356ce4a',
    'Leaflet/Leaflet': 'c96f31a7a350a07cfbc852cf88e6ca69af5f5ec9',
    'statelyai/xstate': 'b1811bf77bc2d1a74367328cec7907aa185b70df',
    'typescript-eslint/typescript-eslint': '56c9ed90d0aee0b5a71cfc39fc76b715b82e3ea8',
    'stylelint/stylelint': '28cff889946ec3f53036f54cc08c04c425451245',
    'postcss/postcss': '8f3784702ecb4c5fdbdccf82d9c033a450aa08d5',
    'mochajs/mocha': 'e6b9ee773481fd739ae24caeb42f32ac0b010f95',
    'moment/luxon': 'b6b9d03709085008287ed7f4ce5067f0f4be53f2',
    'hapijs/hapi': 'f2a24f6635c0892842f6eaf9154d3788f2f1d084',
    'ajv-validator/ajv': '82735a15826a30cc51e97a1bbfb59b3d388e4b98',
    'jsdom/jsdom': '52be38ea0ce303b0756c7086ce8b3b9d74b0553b',
    'pinojs/pino': 'b394c2c16ac6a8919cd33d7f5684a01baca1096f',
    'yargs/yargs': '2a4378bdc2eac9cf7d0cdfe0a52b1b25f779806a',
    'tj/commander.js': 'ba6d13ddb4243e5913367734f8c159089ffe7834',
}

# Snapshots whose history cannot be read past a commit (the store leaves out files of 4 MiB and more,
# and `git log --numstat` stops at the first commit that needs one): the number of commits the
# miner read from the pin. mine_commits.py reads no further, so a complete clone gives the same examples.
HISTORY_LIMIT = {
    'webpack/webpack': 1242, 'jsdom/jsdom': 27, 'hapijs/hapi': 332, 'jestjs/jest': 2820,
    'sveltejs/svelte': 1886, 'mozilla/pdf.js': 472, 'pnpm/pnpm': 3239,
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

# Repository names (the part after the owner) of the benchmark and SWE-bench, caught under any owner.
FORBIDDEN_NAMES = {'requests', 'flask', 'httpx', 'got', 'vite', 'pytest', 'pylint', 'seaborn', 'astropy', 'xarray',
                   'sphinx', 'sympy', 'django', 'scikit-learn', 'matplotlib'}

for _repo, _split in REPOS:
    assert _repo.lower() not in FORBIDDEN_LOWER, _repo
    assert _repo.lower().split('/')[1] not in FORBIDDEN_NAMES, f'{_repo}: a benchmark or SWE-bench name'
    assert len(PINNED.get(_repo, '')) == 40, f'{_repo}: no pinned revision'
assert len({r.lower() for r, _ in REPOS}) == len(REPOS), 'a repository listed twice'
assert set(PINNED) == {r for r, _ in REPOS}, 'PINNED and REPOS differ'
assert set(V1_REPOS) <= set(PINNED) and len(V1_REPOS) == 20


def _check_shared_bench():
    """Where ../shared/bench is checked out beside the repository: no training repository is one of its
    cases' repositories or named in its RESERVED.md. (validation.py, which mine_commits.py imports,
    asserts that no training repository is a validation one.)"""
    import json
    import os
    import re
    bench = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'shared', 'bench')
    used = {r.lower() for r, _ in REPOS}
    reserved = os.path.join(bench, 'RESERVED.md')
    if os.path.exists(reserved):
        named = {m.lower() for m in re.findall(r'\b([A-Za-z0-9][\w.-]*/[A-Za-z0-9][\w.-]*)\b', open(reserved).read())}
        assert not used & named, f'reserved repositories used: {sorted(used & named)}'
    meta = os.path.join(bench, 'dev-cases.meta.jsonl')
    if os.path.exists(meta):
        with open(meta) as f:
            cases = {json.loads(line)['repo'].lower() for line in f if line.strip()}
        assert not used & cases, f'benchmark repositories used: {sorted(used & cases)}'


_check_shared_bench()
