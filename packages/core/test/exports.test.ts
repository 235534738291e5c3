/**
 * The public API, exactly: every entry point of the package's `exports` map, and the names each
 * one exports at run time. A name added to or removed from an entry changes this test on purpose
 * (index.ts lists the main entry's names one by one; nothing internal is re-exported by folder).
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  exports: Record<string, string | { types?: string; default?: string; browser?: { default?: string } }>;
};

const MAIN = [
  'AUDIT_THRESHOLDS',
  'CARD_FIELDS',
  'COMPACTION_DEGRADATION_CODES',
  'COMPACTION_STRATEGIES',
  'ContextGraph',
  'CtxpruneError',
  'DEFAULT_LOCATE_WEIGHTS',
  'DEGRADATION_CODES',
  'EDGE_TYPES',
  'ELISION_STYLES',
  'GOAL_PROMPT',
  'JUDGMENT_FIELDS',
  'LANGUAGES',
  'LexicalScorer',
  'LineKind',
  'LinearRanker',
  'MlpRanker',
  'OverflowStore',
  'PACK_DEGRADATION_CODES',
  'PreparationCache',
  'RANKER_FEATURES',
  'REFERENCE_PACKER',
  'RUBRICS',
  'UNIT_TYPES',
  'UTILITY_WEIGHTS',
  'approximateCounter',
  'assembleContext',
  'auditCards',
  'availableScorers',
  'buildContextGraph',
  'buildFileIndex',
  'buildPackIndex',
  'compact',
  'compactChat',
  'configure',
  'crfParams',
  'createPreparationCache',
  'defaultMaxUnits',
  'describePrune',
  'describeScorer',
  'detectLanguage',
  'documentScoreFromJudge',
  'documentScoreFromScorer',
  'elidedRanges',
  'env',
  'formatRanges',
  'fuseEmissions',
  'isCtxpruneError',
  'isLanguageId',
  'judgeAll',
  'judgeOne',
  'judgePrompt',
  'loadDefaultTokenCounter',
  'loadRanker',
  'locateFiles',
  'makeCard',
  'marginals',
  'migPack',
  'outputOrigin',
  'packContext',
  'pairsFromExamples',
  'pairwiseAccuracy',
  'parseLanguageName',
  'preparePrune',
  'prune',
  'rankerFeatures',
  'readOverflow',
  'referencePack',
  'registerScorer',
  'renderCard',
  'renderCards',
  'resolveScorer',
  'utilityCost',
  'utilityScore',
  'validateJudgment',
  'validateMessages',
  'viterbi',
  'withFocus',
];
const WORKER = ['ENGINE_CHOICES', 'WorkerCrashedError', 'createPrunerClient', 'isAbortError'];
const INTEGRATIONS = ['describePrune', 'elidedRanges', 'formatRanges', 'numberLines', 'withFocus'];
const NODE = [...MAIN, 'DiskOverflowStore', 'OVERFLOW_KEY', 'configureFromEnvironment', 'defaultStateDir', 'loadPackIndex', 'packDirectory', 'readTree'];
const BROWSER = [...MAIN, ...WORKER, 'bundledAssets', 'createPruner', 'currentModelUrl', 'useBundledAssets', 'workerInit'];

/** Entry point → its source module and the names it must export. */
const ENTRIES: Record<string, { source: string; names: string[] | null }> = {
  '.': { source: '../src/index.js', names: MAIN },
  './browser': { source: '../src/integrations/browser.js', names: BROWSER },
  './node': { source: '../src/node.js', names: NODE },
  './integrations': { source: '../src/integrations/index.js', names: INTEGRATIONS },
  './worker': { source: '../src/worker/index.js', names: WORKER },
  // The worker script: importing it starts a worker host (comlink's expose), so only its file is checked.
  './worker/prune.worker': { source: '../src/worker/prune.worker.js', names: null },
};

const sorted = (xs: string[]) => [...xs].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

describe('public API', () => {
  it('the exports map offers exactly these entry points, each built from its source module', () => {
    expect(sorted(Object.keys(pkg.exports))).toEqual(sorted([...Object.keys(ENTRIES), './package.json']));
    for (const [sub, { source }] of Object.entries(ENTRIES)) {
      const target = pkg.exports[sub];
      const dist = typeof target === 'string' ? target : target.default;
      expect(dist, sub).toBe(`./dist/${source.slice('../src/'.length, -3)}.js`);
      expect(typeof target === 'string' ? null : target.types, sub).toBe(`./dist/${source.slice('../src/'.length, -3)}.d.ts`);
      expect(existsSync(new URL(source.replace(/\.js$/, '.ts'), import.meta.url)), source).toBe(true);
    }
    // A browser bundler importing the package name gets the browser entry.
    const main = pkg.exports['.'];
    expect(typeof main === 'string' ? null : main.browser?.default).toBe('./dist/integrations/browser.js');
  });

  for (const [sub, { source, names }] of Object.entries(ENTRIES)) {
    if (!names) continue;
    it(`${sub} exports exactly its documented names`, async () => {
      const m = (await import(source)) as Record<string, unknown>;
      expect(sorted(Object.keys(m))).toEqual(sorted(names));
    });
  }

  it('nothing internal leaks into the main entry', async () => {
    const m = (await import('../src/index.js')) as Record<string, unknown>;
    for (const internal of [
      'cachedTerms',
      'gapMarker',
      'renderPartial',
      'rankMetrics',
      'lexicalWindowScore',
      'termVectors',
      'configureRuntime',
      'runtimeConfig',
    ]) {
      expect(m[internal], internal).toBeUndefined();
    }
  });
});

describe('README', () => {
  it('the API reference lists every name of every entry point', () => {
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    const start = readme.indexOf('### API reference');
    expect(start).toBeGreaterThan(0);
    const section = readme.slice(start, readme.indexOf('\n## ', start));
    const undocumented = [...new Set([...NODE, ...BROWSER, ...INTEGRATIONS])].filter((name) => !section.includes(`\`${name}\``));
    expect(undocumented).toEqual([]);
  });
});

describe('degradation codes', () => {
  it('every code of prune, compact and packContext is documented in the README', async () => {
    const { DEGRADATION_CODES, COMPACTION_DEGRADATION_CODES, PACK_DEGRADATION_CODES } = await import('../src/degradations.js');
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    for (const code of [...Object.keys(DEGRADATION_CODES), ...Object.keys(COMPACTION_DEGRADATION_CODES), ...Object.keys(PACK_DEGRADATION_CODES)])
      expect(readme, code).toContain(`| \`${code}\` |`);
  });
});
