import { describe, expect, it } from 'vitest';
import { decodePolicy, MAX_WHOLE_SPAN } from '../../src/prune/policy.js';

describe('decodePolicy', () => {
  it('a generous budget: full repair, the four fits compared by expected evidence', () => {
    expect(decodePolicy(2000, 8000, 'typescript')).toEqual({
      valueByFused: true,
      repairImports: false,
      maxWholeSpan: MAX_WHOLE_SPAN,
      shallow: false,
      flat: false,
      bare: false,
      variants: 3,
      evidencePower: 1,
    });
  });

  it('deep compression of a small TypeScript file: shallow, flat and bare repair, fits compared by Σσ²', () => {
    expect(decodePolicy(300, 2400, 'typescript')).toMatchObject({ shallow: true, flat: true, bare: true, variants: 3, evidencePower: 2 });
  });

  it('the same budget at 4× is not deep: shallow only', () => {
    expect(decodePolicy(300, 1200, 'typescript')).toMatchObject({ shallow: true, flat: false, bare: false, evidencePower: 1 });
  });

  it('Python keeps its headers (indentation) and compares fits by Σσ', () => {
    expect(decodePolicy(300, 2400, 'python')).toMatchObject({ shallow: true, flat: false, bare: false, variants: 3, evidencePower: 1 });
  });

  it('Go gets flat repair but never bare (its top level holds declarations), and no variants', () => {
    expect(decodePolicy(300, 2400, 'go')).toMatchObject({ flat: true, bare: false, variants: 0, evidencePower: 1 });
  });

  it('no language: no variants, no deep repair', () => {
    expect(decodePolicy(300, 2400, null)).toMatchObject({ flat: true, bare: false, variants: 0 });
  });

  it('tuning overrides every constant', () => {
    expect(
      decodePolicy(300, 2400, 'typescript', {
        packerValue: 0,
        repairImports: 1,
        maxWholeSpan: 9,
        shallowBelow: 0,
        flatBelow: 0,
        bareBelow: 0,
        variants: 0,
        evidencePower: 3,
      }),
    ).toEqual({ valueByFused: false, repairImports: true, maxWholeSpan: 9, shallow: false, flat: false, bare: false, variants: 0, evidencePower: 3 });
  });
});
