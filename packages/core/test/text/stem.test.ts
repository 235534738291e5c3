import { describe, expect, it } from 'vitest';
import { stem } from '../../src/text/stem.js';

describe('stem (Porter 1980)', () => {
  // The examples of Porter's paper, one per rule group.
  const paper: Record<string, string> = {
    // step 1a
    caresses: 'caress',
    ponies: 'poni',
    ties: 'ti',
    caress: 'caress',
    cats: 'cat',
    // step 1b
    feed: 'feed',
    agreed: 'agre',
    plastered: 'plaster',
    motoring: 'motor',
    sing: 'sing',
    conflated: 'conflat',
    troubled: 'troubl',
    sized: 'size',
    hopping: 'hop',
    tanned: 'tan',
    falling: 'fall',
    hissing: 'hiss',
    fizzed: 'fizz',
    failing: 'fail',
    filing: 'file',
    // step 1c
    happy: 'happi',
    sky: 'sky',
    // step 2
    relational: 'relat',
    conditional: 'condit',
    rational: 'ration',
    digitizer: 'digit',
    radicalli: 'radic',
    differentli: 'differ',
    vietnamization: 'vietnam',
    predication: 'predic',
    operator: 'oper',
    feudalism: 'feudal',
    decisiveness: 'decis',
    hopefulness: 'hope',
    callousness: 'callous',
    formaliti: 'formal',
    sensitiviti: 'sensit',
    sensibiliti: 'sensibl',
    // step 3
    triplicate: 'triplic',
    formative: 'form',
    formalize: 'formal',
    electriciti: 'electr',
    electrical: 'electr',
    hopeful: 'hope',
    goodness: 'good',
    // step 4
    revival: 'reviv',
    allowance: 'allow',
    inference: 'infer',
    airliner: 'airlin',
    gyroscopic: 'gyroscop',
    adjustable: 'adjust',
    defensible: 'defens',
    irritant: 'irrit',
    replacement: 'replac',
    adjustment: 'adjust',
    dependent: 'depend',
    adoption: 'adopt',
    homologou: 'homolog',
    communism: 'commun',
    activate: 'activ',
    angulariti: 'angular',
    homologous: 'homolog',
    effective: 'effect',
    bowdlerize: 'bowdler',
    // step 5
    probate: 'probat',
    rate: 'rate',
    cease: 'ceas',
    controll: 'control',
    roll: 'roll',
  };

  it("gives the paper's stems", () => {
    const got = Object.fromEntries(Object.keys(paper).map((w) => [w, stem(w)]));
    expect(got).toEqual(paper);
  });

  it('brings a commit message and the code it edits to the same stems', () => {
    expect(['parse', 'parsing', 'parsed', 'parser'].map(stem)).toEqual(['pars', 'pars', 'pars', 'parser']);
    expect(['headers', 'header'].map(stem)).toEqual(['header', 'header']);
    expect(['validation', 'validate', 'validator', 'valid'].map(stem)).toEqual(['valid', 'valid', 'valid', 'valid']);
  });

  it('leaves short words, digits and non-letters alone', () => {
    expect(['is', 'at', 'v2', 'http2', '404', '$el', 'utf8'].map(stem)).toEqual(['is', 'at', 'v2', 'http2', '404', '$el', 'utf8']);
  });
});
