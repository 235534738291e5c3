"""The validation corpus: repositories every knob is tuned on (lexical weights, structure and repair
rules, thresholds, packer, gate, model selection). Dev (../shared/bench) is run only to report.

None of them is a training repository (repos.py, split 'train', or one tried for training), a
benchmark or SWE-bench repository, or one of ../shared/bench/RESERVED.md; the asserts below check it.
Each is mined at the commit pinned here, so a rerun gives the same cases (mine_validation.py).
"""
from repos import FORBIDDEN_LOWER, REPOS, TRIED_FOR_TRAINING

# (owner/name, language group, what kind of code it is, pinned commit)
VALIDATION = [
    # Python
    ('marshmallow-code/marshmallow', 'python', 'library', '341b927f219205704728c05cd61f04d7e9727523'),
    ('httpie/cli', 'python', 'cli', '5b604c37c6c67e18e7c3e9aee6c88a8c22b98345'),
    ('encode/uvicorn', 'python', 'server', 'e6c7ce791fc634b6eedee40e0d0207faa8a9aefd'),
    ('fastapi/typer', 'python', 'cli', '9a7b2e83f6b62c750d6026b0de9ebf2026a8b8fa'),
    ('sqlalchemy/alembic', 'python', 'library', '20e58db01cad3432c24734e11b893303cdb687a4'),
    ('celery/kombu', 'python', 'library', '9ee8595b835c77b4f04cfb54b40b5d446f985a35'),
    ('python-attrs/cattrs', 'python', 'type-heavy', '82b02c07ca535a1ba656b935767d819eac9d383b'),
    ('Delgan/loguru', 'python', 'library', '2a17be730e111cf874d0bf967c4c5da15b7e4670'),
    ('paramiko/paramiko', 'python', 'library', '8697158113a3eab25ed1d1d541ebe2cad10169a7'),
    ('jazzband/pip-tools', 'python', 'cli', 'c58d5d945c0f20e9713e10f5fea2491a5c984f39'),
    ('pypa/hatch', 'python', 'cli', 'ed8e30bebf98f2fe4d70c18a32a50a8160c391cb'),
    ('tox-dev/tox', 'python', 'cli', 'ccb12fc2e1bb9df0da860be4af175e9b97949fbc'),
    ('getsentry/sentry-python', 'python', 'library', '064542dd2cbdbe0b11f1cda7f47d7d2920b0c38b'),
    ('more-itertools/more-itertools', 'python', 'library', '2fe1b2eeb9d75f994113fe3ac76d14b6bcd6fb10'),
    ('python-jsonschema/jsonschema', 'python', 'library', 'b37f7be6dc7966a1f1a67557976041ffe0826cb3'),
    ('arrow-py/arrow', 'python', 'library', 'b247ad073d4c350270528edb5afff8e7f4f7d9e4'),
    ('aio-libs/yarl', 'python', 'library', '7009e844cec7959e73741102ceadff49ed914291'),
    ('falconry/falcon', 'python', 'server', 'ce0a35b8fd02747cc72710202886874906b0d47a'),
    ('benoitc/gunicorn', 'python', 'server', '65ac1a3a4c0aa00960968c720d6e6bd2ac32f1b9'),
    ('python-trio/trio', 'python', 'library', '60d0c2f84854ec6ef74995663dcdce3296840485'),
    ('agronholm/anyio', 'python', 'library', '660a06d548ca72759e9d89ed722dd1ad5227afe4'),
    ('nedbat/coveragepy', 'python', 'cli', '210ade2b3bed97c089ba29255c9a342c5b7aee14'),
    ('pyinvoke/invoke', 'python', 'cli', '6a71e680c535ba6520e935c497099fbca011d03c'),
    ('tqdm/tqdm', 'python', 'library', 'f6a30fab726ab8e794a9db88b4392ce207760937'),
    # TypeScript / JavaScript
    ('colinhacks/zod', 'typescript', 'type-heavy', 'e516c3baf22615e20934116abebfed6c000222c2'),
    ('axios/axios', 'typescript', 'library', '23a25af0688d1db2c396deb09229d2271cc24f6c'),
    ('koajs/koa', 'typescript', 'server', 'e0ba8ef39d27fe5dae5492f9fe753d155124f994'),
    ('react-hook-form/react-hook-form', 'typescript', 'tsx-ui', 'd29f3ee09cc24aa29da6127e7657106fb06c76f5'),
    ('jaredpalmer/formik', 'typescript', 'tsx-ui', '91475adbf33579561e580eceea0c031f4ec2e992'),
    ('typestack/class-validator', 'typescript', 'decorators', '0853341cc36f53d54e5afb50800c3a4b169abd73'),
    ('elysiajs/elysia', 'typescript', 'server', '8358ff9efbcedf9534995f5977f26b9ceab59329'),
    ('socketio/socket.io', 'typescript', 'server', 'd2d753fed4435015c2d83fe62e676b44e07fa3f7'),
    ('knex/knex', 'typescript', 'library', 'e25d54bcb707714a17f5a5744eba5c4246bb4d1d'),
    ('pmndrs/jotai', 'typescript', 'tsx-ui', '1fae77247ae72ab5f2f002dc82a876e61ce26f56'),
    ('unjs/h3', 'typescript', 'server', 'ac609aae8fa93947b564de55e2d1a6bec5ad18ad'),
    ('unjs/ofetch', 'typescript', 'library', 'dfbe3ca4ef8a22fc023fca5a5ef530e525f5e523'),
    ('TanStack/table', 'typescript', 'tsx-ui', 'd3000515c7172dc456665fe32ba671132a9d9280'),
    ('chartjs/Chart.js', 'typescript', 'library', 'cb02e1d207bd4c4c40b20c259017f85f26f1e30a'),
    ('iamkun/dayjs', 'typescript', 'library', '0f6c19e3b63bcc3ff74917cb3a60125020c75648'),
    ('tailwindlabs/headlessui', 'typescript', 'tsx-ui', 'eea57cf46fd6767ed1059012f7073b88eb159fba'),
    ('radix-ui/primitives', 'typescript', 'tsx-ui', 'f7ecd5ab16f5e1e820eb5786a1419a98a2d594ae'),
    ('preactjs/preact', 'typescript', 'tsx-ui', 'f6c6cda581e1123095c56f9fc232b82fc518e426'),
    ('solidjs/solid', 'typescript', 'tsx-ui', 'f47845f9cc16ecbb316aa6560c7161f45af9a3d8'),
    ('sinclairzx81/typebox', 'typescript', 'type-heavy', '8f8d861ba204a21ca067b28db10e3d1dc19bd732'),
    ('gcanti/fp-ts', 'typescript', 'type-heavy', 'e91bde112e0a2a4e617e8fc7f7a62ea4c10ba404'),
    ('remix-run/react-router', 'typescript', 'tsx-ui', 'cab1a69054aa7dfba08a81b6e4b4d13957c82a38'),
    ('drizzle-team/drizzle-orm', 'typescript', 'type-heavy', 'b7862528fd8fc39bc2653a6c18dad7c1f4e68d10'),
    ('mermaid-js/mermaid', 'typescript', 'library', 'df032c942c32f805a7f4cd1cf30a565e610bc4f1'),
]

_train = {r.lower() for r, split in REPOS if split == 'train'}
for _repo, _group, _kind, _pin in VALIDATION:
    _key = _repo.lower()
    assert _key not in FORBIDDEN_LOWER, f'{_repo} is a benchmark, SWE-bench or reserved repository'
    assert _key not in _train and _key not in TRIED_FOR_TRAINING, f'{_repo} is a training repository'
assert len({r.lower() for r, *_ in VALIDATION}) == len(VALIDATION)
