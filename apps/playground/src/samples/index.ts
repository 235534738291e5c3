import fetcherPy from './fetcher.py?raw';
import sessionStoreTs from './sessionStore.ts?raw';

export interface Sample {
  id: string;
  label: string;
  fileName: string;
  code: string;
  query: string;
}

/** Samples written for the playground (not taken from any project). */
export const SAMPLES: Sample[] = [
  {
    id: 'python-fetcher',
    label: 'Python · HTTP fetcher with retries',
    fileName: 'fetcher.py',
    code: fetcherPy,
    query: 'Retry-After sent as an HTTP date is ignored, so we retry a 429 too soon',
  },
  {
    id: 'typescript-sessions',
    label: 'TypeScript · session store on an LRU cache',
    fileName: 'sessionStore.ts',
    code: sessionStoreTs,
    query: 'sessions end with reason "capacity" although maxSessions is not reached; check eviction in touch()',
  },
];

export const DEFAULT_SAMPLE = SAMPLES[0];

export function findSample(id: string | null | undefined): Sample | undefined {
  return SAMPLES.find((s) => s.id === id);
}
