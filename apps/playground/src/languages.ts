import type { LanguageId } from '@ctxprune/core';

export const LANGUAGE_LABELS: Record<LanguageId, string> = {
  python: 'Python',
  typescript: 'TypeScript',
  tsx: 'TSX',
  javascript: 'JavaScript',
  go: 'Go',
  rust: 'Rust',
  java: 'Java',
  c: 'C',
  cpp: 'C++',
  csharp: 'C#',
  ruby: 'Ruby',
  php: 'PHP',
};

/** Monaco's colouring for each language ctxprune understands. */
export const MONACO_LANGUAGE: Record<LanguageId, string> = {
  python: 'python',
  typescript: 'typescript',
  tsx: 'typescript',
  javascript: 'javascript',
  go: 'go',
  rust: 'rust',
  java: 'java',
  c: 'cpp',
  cpp: 'cpp',
  csharp: 'csharp',
  ruby: 'ruby',
  php: 'php',
};

export const EXTENSION: Record<LanguageId, string> = {
  python: 'py',
  typescript: 'ts',
  tsx: 'tsx',
  javascript: 'js',
  go: 'go',
  rust: 'rs',
  java: 'java',
  c: 'c',
  cpp: 'cpp',
  csharp: 'cs',
  ruby: 'rb',
  php: 'php',
};
