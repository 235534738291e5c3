/**
 * The per-language table: one entry per language holds every fact the library knows of it, its
 * names (file extensions, aliases, grammar file), its lexical conventions (comments, closers,
 * identifiers) and the tree-sitter node types of its grammar (imports, definitions, control
 * statements, clauses, cases, body containers, ...) with the hooks for its quirks. Adding a
 * language is its id in LANGUAGES (types.ts) and an entry here (plus, for content detection without
 * a file name, its rules in languages.ts detectByContent, and its grammar's URL in
 * integrations/bundled.ts and package path in loader.ts). Pure.
 */
import { CtxpruneError } from '../errors.js';
import { own } from '../util/own.js';
import type { Node } from 'web-tree-sitter';
import type { Steps } from '../util/steps.js';
import {
  cppImportNames,
  csharpImportNames,
  goImportNames,
  javaImportNames,
  jsImportNames,
  phpImportNames,
  pythonImportNames,
  rustImportNames,
} from './import-names.js';
import { typeOf } from './nodecache.js';
import { CSHARP_PARAMS_COLLECTIONS, CSHARP_TARGET_WORDS } from './shims-csharp.js';
import { C_MACROS, CPP_MACROS } from './shims-macros.js';
import { C_PREPROCESSOR, CONDITIONALS, CPP_PREPROCESSOR, type RecoveryShim } from './shims-preprocessor.js';
import { JSX_AMPERSANDS, javascriptShims, TEMPLATE_TYPE_ESCAPES, TSX_GENERIC_SIGNATURES, typescriptShims } from './shims-typescript.js';
import type { LanguageId } from './types.js';

export interface GrammarTable {
  /** File extensions (lower case, no dot) of the language's files; matched case-insensitively. */
  extensions: readonly string[];
  /** Extensions matched exactly, before the case-insensitive ones (C++'s upper-case `.C`, `.H`). */
  extensionsExact?: readonly string[];
  /** Well-known file names without an extension (lower case: `Rakefile`, `Gemfile`). */
  fileNames?: readonly string[];
  /** Names a caller may give for the language (lower case, no spaces), its id among them. */
  aliases: readonly string[];
  /** File name of its tree-sitter grammar's wasm. */
  grammarFile: string;
  /** Line comment prefix (also of the elision markers). */
  lineComment: '#' | '//';
  /** Identifiers may hold `$` (the JavaScript family). */
  dollarIdentifiers?: boolean;
  /** The trained model's language family (feature `is_python` / `is_typescript`); none: the model does not score it. */
  modelFamily?: 'python' | 'typescript';
  /** Content detection (languages.ts) may pick it without a 2-point margin over the runner-up. */
  detectWithoutMargin?: boolean;
  /** A block header kept without its body does not parse (Python's `if x:` needs a body): repair keeps one. */
  headerNeedsBody?: boolean;
  /**
   * A function body whose only statement is an empty bare block (`void f() { { } }`) reads as a
   * declaration with a brace initializer (tree-sitter-cpp), and then misses its `;`: repair keeps
   * such a block's first statement.
   */
  loneBlockNeedsBody?: boolean;
  /**
   * A member definition parses outside its class (Python's `def`): shallow repair (prune/repair.ts)
   * may leave the class header out. Elsewhere a method without its class does not parse.
   */
  membersStandAlone?: boolean;
  /** A line that opens the language's code in a template (PHP's `<?php`): repair keeps the last one before a kept line. */
  openTag?: RegExp;
  /** The names an import-like statement binds (import-names.ts), from its text with whitespace folded; none: no names. */
  importNames?: (flat: string) => string[];
  /** The names of a definition node the generic field search does not find (Go's type declaration groups); undefined: the generic search. */
  defNames?: (n: Node) => string[] | undefined;
  /** Rewrites for the parser only, keeping every byte offset (shims.ts). */
  shim?: (text: string) => Steps<string>;
  /**
   * Rewrites tried, in order, on a parse that has errors, each kept only when the reparse has fewer
   * (loader.ts; shims-preprocessor.ts: the C family's preprocessor conditionals and macros).
   */
  recover?: readonly RecoveryShim[];
  /** `#if` … `#endif` (and `#region` … `#endregion`) lines are tied together as structure (directives.ts). */
  directives?: boolean;
  /** Comment node types. */
  comments: Set<string>;
  /** Statement types that are imports / includes / package declarations. */
  imports: Set<string>;
  /**
   * Multi-line text nodes with children, besides `string` and `template_string` (syntax/nesting.ts):
   * kept in part like a string, their first and last lines with the kept ones (PHP's heredoc). A
   * leaf token over several lines (a Go raw string, JSX text) is text without being listed.
   */
  texts?: Set<string>;
  /** Statement-level decorator / attribute nodes that precede a definition (Rust `#[..]`, TS member decorators). */
  decorators: Set<string>;
  /** Definition nodes that open a block (body found by `body` field or `bodyOf`). */
  defs: Set<string>;
  /** Subset of defs that are class-like scopes (their variable declarations are definitions). */
  classLike: Set<string>;
  /** Control statements (compound statements: if, for, while, try, switch, ...). */
  controls: Set<string>;
  /** Later clauses of a compound statement (else, elif, except, catch, finally, rescue, ensure). */
  clauses: Set<string>;
  /** Case-like nodes inside a switch/match (case labels with their statements). */
  cases: Set<string>;
  /** Containers whose named children are statements (block bodies). */
  blocks: Set<string>;
  /** Nodes whose named children are treated as siblings in the enclosing block. */
  transparent: Set<string>;
  /** Wrappers around one definition (export, decorated_definition, template): field or last named child. */
  wrappers: Map<string, string | null>;
  /** Expression-level block openers found inside multi-line statements (closures, lambdas, blocks). */
  inner: Set<string>;
  /** Statement types whose declared names are definitions at module / class level. */
  varDecls: Set<string>;
  /** Prefix of decorator lines (lexical), or null. */
  decoratorLine: RegExp | null;
  /** Blocks close with the keyword `end` (a closer line is `end`, or brackets with a `#` comment: lexical.ts). */
  endKeyword: boolean;
  /**
   * Blocks never open with a brace (Python's indentation, Ruby's `do`/`end`): a body on a later
   * line is not a brace-less body; without endKeyword, a closer line is brackets with a `#` comment.
   */
  bracelessBlocks?: boolean;
  /** `inner` node types that head a control block, not a definition (Ruby's `do … end` and `{ … }` blocks: an iteration, not a closure). */
  innerControls?: Set<string>;
  /**
   * The body of a definition node that has no `body` field, where the grammar puts it elsewhere:
   * a node, null for none (a prototype), undefined for the generic search (a child block).
   */
  defBody?: (n: Node) => Node | null | undefined;
  /**
   * The body of a case label that has no `consequence` field: a node, 'whole' (the label and its
   * statements are one unit), or undefined (its statements follow the label's ':').
   */
  caseBody?: (c: Node, isBlock: (n: Node) => boolean) => Node | 'whole' | undefined;
  /**
   * Text that each `inner` node type cannot lack: the keyword or delimiter token every such node
   * (and every body block it opens) holds. A statement without ERROR / MISSING nodes whose text
   * has none of these has no such descendant (or only a single-line keyword token of that name,
   * which inner.ts skips), so its search can be skipped; none: always search. A method's token is
   * the `) {` (or, in TypeScript, `):` before a return type) after its parameters: a method with
   * its brace on the next line is not searched for and stays part of its statement, whose bracket
   * nesting still holds it.
   */
  innerTokens?: RegExp;
  /** A statement line that is an import although its node is not one (`const x = require(…)`, Ruby's `require`, PHP's `include`). */
  importLine?: RegExp;
}

/** Go: the names of a type declaration (a `type ( A …; B … )` group names several). */
function goTypeNames(n: Node): string[] | undefined {
  if (typeOf(n) !== 'type_declaration') return undefined;
  const out: string[] = [];
  for (const spec of n.namedChildren) {
    const name = spec?.childForFieldName('name');
    if (name) out.push(name.text);
  }
  return out;
}

/** Go: a type declaration's struct field list, or its interface type. */
function goTypeBody(n: Node): Node | undefined {
  if (typeOf(n) !== 'type_declaration') return undefined;
  const spec = n.namedChildren.find((k) => k !== null && typeOf(k) === 'type_spec');
  const ty = spec?.childForFieldName('type');
  const tyt = ty ? typeOf(ty) : '';
  if (tyt === 'struct_type') return ty!.namedChildren.find((k) => k !== null && typeOf(k) === 'field_declaration_list') ?? undefined;
  if (tyt === 'interface_type') return ty!;
  return undefined;
}

const S = (...xs: string[]) => new Set(xs);

/** The JavaScript family's common entry, less its names (extensions, aliases, grammar file). */
const jsBase = (): Omit<GrammarTable, 'extensions' | 'aliases' | 'grammarFile'> => ({
  lineComment: '//',
  dollarIdentifiers: true,
  modelFamily: 'typescript',
  importNames: jsImportNames,
  innerTokens: /=>|function|class|\)\s*[{:]/,
  importLine: /^\s*(const|let|var)\s+[^=]+=\s*require\s*\(/,
  comments: S('comment', 'html_comment'),
  imports: S('import_statement', 'import_alias'),
  decorators: S('decorator'),
  defs: S(
    'function_declaration',
    'generator_function_declaration',
    'class_declaration',
    'abstract_class_declaration',
    'method_definition',
    'interface_declaration',
    'enum_declaration',
    'internal_module',
    'module',
    'function_signature',
  ),
  classLike: S('class_declaration', 'abstract_class_declaration', 'interface_declaration', 'enum_declaration', 'internal_module', 'module'),
  controls: S(
    'if_statement',
    'for_statement',
    'for_in_statement',
    'while_statement',
    'do_statement',
    'try_statement',
    'switch_statement',
    'with_statement',
    'labeled_statement',
  ),
  clauses: S('else_clause', 'catch_clause', 'finally_clause'),
  cases: S('switch_case', 'switch_default'),
  blocks: S('statement_block', 'class_body', 'interface_body', 'enum_body', 'switch_body', 'object_type'),
  transparent: S(),
  wrappers: new Map([
    ['export_statement', 'declaration'],
    ['ambient_declaration', null],
  ]),
  // method_definition: a method in an object literal (`return { name, transform() { … } }`, every
  // Vite plugin) is a closure like an arrow function: its body is walked, not one long statement.
  inner: S('arrow_function', 'function_expression', 'function', 'generator_function', 'class', 'method_definition'),
  varDecls: S('lexical_declaration', 'variable_declaration', 'type_alias_declaration', 'public_field_definition', 'field_definition'),
  decoratorLine: /^@/,
  endKeyword: false,
});

const TABLES: Record<LanguageId, GrammarTable> = {
  python: {
    extensions: ['py', 'pyi', 'pyw'],
    aliases: ['python', 'py', 'python3', 'py3'],
    grammarFile: 'tree-sitter-python.wasm',
    lineComment: '#',
    modelFamily: 'python',
    headerNeedsBody: true,
    membersStandAlone: true,
    importNames: pythonImportNames,
    bracelessBlocks: true,
    comments: S('comment'),
    imports: S('import_statement', 'import_from_statement', 'future_import_statement'),
    decorators: S('decorator'),
    defs: S('function_definition', 'class_definition'),
    classLike: S('class_definition'),
    controls: S('if_statement', 'for_statement', 'while_statement', 'try_statement', 'with_statement', 'match_statement'),
    clauses: S('elif_clause', 'else_clause', 'except_clause', 'except_group_clause', 'finally_clause'),
    cases: S('case_clause'),
    blocks: S('block'),
    transparent: S(),
    wrappers: new Map([['decorated_definition', 'definition']]),
    inner: S(),
    varDecls: S('expression_statement'),
    decoratorLine: /^@/,
    endKeyword: false,
  },
  typescript: {
    ...jsBase(),
    extensions: ['ts', 'mts', 'cts'],
    aliases: ['typescript', 'ts', 'mts', 'cts'],
    grammarFile: 'tree-sitter-typescript.wasm',
    detectWithoutMargin: true,
    shim: (text) => typescriptShims(text, false),
    recover: [TEMPLATE_TYPE_ESCAPES],
  },
  tsx: {
    ...jsBase(),
    extensions: ['tsx'],
    aliases: ['tsx', 'typescriptreact'],
    grammarFile: 'tree-sitter-tsx.wasm',
    detectWithoutMargin: true,
    shim: (text) => typescriptShims(text, true),
    recover: [JSX_AMPERSANDS, TSX_GENERIC_SIGNATURES, TEMPLATE_TYPE_ESCAPES],
  },
  javascript: {
    ...jsBase(),
    extensions: ['js', 'mjs', 'cjs', 'jsx'],
    aliases: ['javascript', 'js', 'jsx', 'mjs', 'cjs', 'node', 'nodejs', 'ecmascript', 'javascriptreact'],
    grammarFile: 'tree-sitter-javascript.wasm',
    shim: javascriptShims,
    recover: [JSX_AMPERSANDS],
    innerTokens: /=>|function|class|\)\s*\{/,
  },
  go: {
    extensions: ['go'],
    aliases: ['go', 'golang'],
    grammarFile: 'tree-sitter-go.wasm',
    lineComment: '//',
    importNames: goImportNames,
    defNames: goTypeNames,
    innerTokens: /func/,
    comments: S('comment'),
    imports: S('import_declaration', 'package_clause'),
    decorators: S(),
    defs: S('function_declaration', 'method_declaration', 'type_declaration'),
    classLike: S('type_declaration'),
    controls: S('if_statement', 'for_statement', 'expression_switch_statement', 'type_switch_statement', 'select_statement', 'labeled_statement'),
    clauses: S(),
    cases: S('expression_case', 'default_case', 'type_case', 'communication_case'),
    blocks: S('block', 'field_declaration_list', 'interface_type'),
    transparent: S('statement_list'),
    wrappers: new Map(),
    inner: S('func_literal'),
    varDecls: S('var_declaration', 'const_declaration'),
    decoratorLine: null,
    endKeyword: false,
    // A type declaration's body: its struct's field list, or its interface.
    defBody: goTypeBody,
  },
  rust: {
    extensions: ['rs'],
    aliases: ['rust', 'rs'],
    grammarFile: 'tree-sitter-rust.wasm',
    lineComment: '//',
    importNames: rustImportNames,
    innerTokens: /\{/,
    comments: S('line_comment', 'block_comment'),
    imports: S('use_declaration', 'extern_crate_declaration'),
    decorators: S('attribute_item', 'inner_attribute_item'),
    defs: S('function_item', 'struct_item', 'enum_item', 'union_item', 'trait_item', 'impl_item', 'mod_item', 'macro_definition', 'function_signature_item'),
    classLike: S('struct_item', 'enum_item', 'union_item', 'trait_item', 'impl_item', 'mod_item'),
    controls: S('if_expression', 'match_expression', 'for_expression', 'while_expression', 'loop_expression', 'unsafe_block', 'async_block', 'const_block'),
    clauses: S('else_clause'),
    cases: S('match_arm'),
    blocks: S('block', 'declaration_list', 'field_declaration_list', 'enum_variant_list', 'match_block'),
    transparent: S(),
    wrappers: new Map(),
    inner: S(
      'closure_expression',
      'if_expression',
      'match_expression',
      'for_expression',
      'while_expression',
      'loop_expression',
      'unsafe_block',
      'async_block',
      'block',
    ),
    varDecls: S('const_item', 'static_item', 'type_item'),
    decoratorLine: /^#!?\[/,
    endKeyword: false,
    // A match arm: its block value, else the arm as a whole.
    caseBody: (c, isBlock) => {
      const v = c.childForFieldName('value');
      return v && isBlock(v) ? v : 'whole';
    },
  },
  java: {
    extensions: ['java'],
    aliases: ['java'],
    grammarFile: 'tree-sitter-java.wasm',
    lineComment: '//',
    importNames: javaImportNames,
    innerTokens: /->|\{|switch/,
    comments: S('line_comment', 'block_comment'),
    imports: S('import_declaration', 'package_declaration', 'module_declaration'),
    decorators: S(),
    defs: S(
      'class_declaration',
      'interface_declaration',
      'enum_declaration',
      'record_declaration',
      'annotation_type_declaration',
      'method_declaration',
      'constructor_declaration',
      'compact_constructor_declaration',
      'static_initializer',
    ),
    classLike: S('class_declaration', 'interface_declaration', 'enum_declaration', 'record_declaration', 'annotation_type_declaration'),
    controls: S(
      'if_statement',
      'for_statement',
      'enhanced_for_statement',
      'while_statement',
      'do_statement',
      'try_statement',
      'try_with_resources_statement',
      'switch_expression',
      'switch_statement',
      'synchronized_statement',
      'labeled_statement',
    ),
    clauses: S('catch_clause', 'finally_clause'),
    cases: S('switch_block_statement_group', 'switch_rule'),
    blocks: S('block', 'class_body', 'interface_body', 'enum_body', 'switch_block', 'constructor_body', 'annotation_type_body', 'enum_body_declarations'),
    transparent: S('enum_body_declarations'),
    wrappers: new Map(),
    inner: S('lambda_expression', 'class_body', 'switch_expression'),
    varDecls: S('field_declaration', 'constant_declaration'),
    decoratorLine: /^@(?!interface\b)/,
    endKeyword: false,
    // A `case X ->` rule: its block, else the rule as a whole.
    caseBody: (c, isBlock) => {
      if (typeOf(c) !== 'switch_rule') return undefined;
      const b = c.lastNamedChild;
      return b && isBlock(b) ? b : 'whole';
    },
  },
  c: {
    extensions: ['c', 'h'],
    aliases: ['c', 'h'],
    grammarFile: 'tree-sitter-c.wasm',
    lineComment: '//',
    recover: [C_PREPROCESSOR, C_MACROS],
    directives: true,
    detectWithoutMargin: true,
    innerTokens: /\{/,
    comments: S('comment'),
    imports: S('preproc_include'),
    decorators: S(),
    defs: S('function_definition', 'struct_specifier', 'union_specifier', 'enum_specifier'),
    classLike: S('struct_specifier', 'union_specifier', 'enum_specifier'),
    controls: S('if_statement', 'for_statement', 'while_statement', 'do_statement', 'switch_statement', 'labeled_statement'),
    clauses: S('else_clause'),
    cases: S('case_statement'),
    blocks: S('compound_statement', 'field_declaration_list', 'enumerator_list'),
    transparent: S('preproc_if', 'preproc_ifdef', 'preproc_else', 'preproc_elif', 'preproc_elifdef'),
    wrappers: new Map(),
    inner: S('field_declaration_list', 'enumerator_list', 'compound_statement'),
    varDecls: S('declaration', 'preproc_def', 'preproc_function_def', 'type_definition', 'field_declaration'),
    decoratorLine: /^\[\[/,
    endKeyword: false,
    // A function_definition without a body field is a prototype: no body.
    defBody: (n) => (typeOf(n) === 'function_definition' ? null : undefined),
  },
  cpp: {
    extensions: ['cc', 'cpp', 'cxx', 'c++', 'hpp', 'hh', 'hxx', 'ipp'],
    extensionsExact: ['C', 'H'],
    aliases: ['cpp', 'c++', 'cxx', 'cc', 'hpp', 'cplusplus'],
    grammarFile: 'tree-sitter-cpp.wasm',
    lineComment: '//',
    recover: [CPP_PREPROCESSOR, CPP_MACROS],
    loneBlockNeedsBody: true,
    directives: true,
    detectWithoutMargin: true,
    importNames: cppImportNames,
    innerTokens: /\{/,
    comments: S('comment'),
    imports: S('preproc_include', 'using_declaration', 'alias_declaration', 'import_declaration'),
    decorators: S(),
    defs: S(
      'function_definition',
      'struct_specifier',
      'union_specifier',
      'enum_specifier',
      'class_specifier',
      'namespace_definition',
      'linkage_specification',
      'concept_definition',
    ),
    classLike: S('struct_specifier', 'union_specifier', 'enum_specifier', 'class_specifier', 'namespace_definition', 'linkage_specification'),
    controls: S('if_statement', 'for_statement', 'for_range_loop', 'while_statement', 'do_statement', 'switch_statement', 'try_statement', 'labeled_statement'),
    clauses: S('else_clause', 'catch_clause'),
    cases: S('case_statement'),
    blocks: S('compound_statement', 'field_declaration_list', 'enumerator_list', 'declaration_list'),
    transparent: S('preproc_if', 'preproc_ifdef', 'preproc_else', 'preproc_elif', 'preproc_elifdef'),
    wrappers: new Map([['template_declaration', null]]),
    inner: S('lambda_expression', 'field_declaration_list', 'enumerator_list', 'compound_statement'),
    varDecls: S('declaration', 'preproc_def', 'preproc_function_def', 'type_definition', 'field_declaration', 'alias_declaration'),
    decoratorLine: /^\[\[/,
    endKeyword: false,
    defBody: (n) => (typeOf(n) === 'function_definition' ? null : undefined),
  },
  csharp: {
    extensions: ['cs'],
    aliases: ['csharp', 'c#', 'cs', 'c-sharp', 'dotnet'],
    grammarFile: 'tree-sitter-c-sharp.wasm',
    lineComment: '//',
    recover: [CONDITIONALS, CSHARP_PARAMS_COLLECTIONS, CSHARP_TARGET_WORDS],
    directives: true,
    importNames: csharpImportNames,
    innerTokens: /=>|delegate/,
    comments: S('comment'),
    imports: S('using_directive', 'extern_alias_directive', 'file_scoped_namespace_declaration'),
    decorators: S(),
    defs: S(
      'class_declaration',
      'struct_declaration',
      'interface_declaration',
      'enum_declaration',
      'record_declaration',
      'record_struct_declaration',
      'namespace_declaration',
      'method_declaration',
      'constructor_declaration',
      'destructor_declaration',
      'operator_declaration',
      'conversion_operator_declaration',
      'local_function_statement',
      'property_declaration',
      'indexer_declaration',
      'accessor_declaration',
    ),
    classLike: S(
      'class_declaration',
      'struct_declaration',
      'interface_declaration',
      'enum_declaration',
      'record_declaration',
      'record_struct_declaration',
      'namespace_declaration',
    ),
    controls: S(
      'if_statement',
      'for_statement',
      'foreach_statement',
      'while_statement',
      'do_statement',
      'try_statement',
      'switch_statement',
      'using_statement',
      'lock_statement',
      'fixed_statement',
      'checked_statement',
      'unsafe_statement',
      'labeled_statement',
    ),
    clauses: S('catch_clause', 'finally_clause'),
    cases: S('switch_section'),
    blocks: S('block', 'declaration_list', 'switch_body', 'enum_member_declaration_list', 'accessor_list'),
    transparent: S(),
    wrappers: new Map(),
    inner: S('lambda_expression', 'anonymous_method_expression'),
    varDecls: S('field_declaration', 'event_field_declaration', 'delegate_declaration'),
    decoratorLine: /^\[/,
    endKeyword: false,
  },
  ruby: {
    extensions: ['rb', 'rake', 'gemspec'],
    fileNames: ['rakefile', 'gemfile', 'guardfile', 'podfile'],
    aliases: ['ruby', 'rb'],
    grammarFile: 'tree-sitter-ruby.wasm',
    lineComment: '#',
    innerControls: S('do_block', 'block'),
    bracelessBlocks: true,
    innerTokens: /do|\{|->|if|unless|case|begin|while/,
    importLine: /^\s*(require|require_relative|load|autoload)\b/,
    comments: S('comment'),
    imports: S(),
    decorators: S(),
    defs: S('method', 'singleton_method', 'class', 'module', 'singleton_class'),
    classLike: S('class', 'module', 'singleton_class'),
    controls: S('if', 'unless', 'while', 'until', 'for', 'case', 'case_match', 'begin'),
    clauses: S('elsif', 'else', 'rescue', 'ensure'),
    cases: S('when', 'in_clause'),
    blocks: S('body_statement', 'then', 'do', 'block_body'),
    transparent: S(),
    wrappers: new Map(),
    inner: S('do_block', 'block', 'lambda', 'if', 'unless', 'case', 'begin', 'while'),
    varDecls: S('assignment'),
    decoratorLine: null,
    endKeyword: true,
    // `when` holds its statements in `body`; a case's `else` is its own body.
    caseBody: (c) => c.childForFieldName('body') ?? (typeOf(c) === 'else' ? c : undefined),
  },
  php: {
    extensions: ['php', 'phtml'],
    aliases: ['php'],
    grammarFile: 'tree-sitter-php.wasm',
    lineComment: '//',
    openTag: /^\s*<\?(?:php(?:\s|$)|=)/i,
    importNames: phpImportNames,
    innerTokens: /function|match/i,
    importLine: /^\s*(require|include)(_once)?\b/,
    comments: S('comment'),
    imports: S('namespace_use_declaration', 'include_expression', 'require_expression', 'include_once_expression', 'require_once_expression'),
    texts: S('heredoc', 'nowdoc'),
    decorators: S('attribute_list'),
    defs: S(
      'function_definition',
      'class_declaration',
      'interface_declaration',
      'trait_declaration',
      'enum_declaration',
      'method_declaration',
      'namespace_definition',
    ),
    classLike: S('class_declaration', 'interface_declaration', 'trait_declaration', 'enum_declaration', 'namespace_definition'),
    controls: S('if_statement', 'for_statement', 'foreach_statement', 'while_statement', 'do_statement', 'try_statement', 'switch_statement'),
    clauses: S('else_if_clause', 'else_clause', 'catch_clause', 'finally_clause'),
    cases: S('case_statement', 'default_statement'),
    blocks: S('compound_statement', 'declaration_list', 'switch_block', 'enum_declaration_list'),
    transparent: S(),
    wrappers: new Map(),
    inner: S('anonymous_function', 'anonymous_function_creation_expression', 'match_expression'),
    varDecls: S('const_declaration', 'property_declaration', 'expression_statement'),
    decoratorLine: /^#\[/,
    endKeyword: false,
  },
};

/** The entry of a language; undefined for null or a name that is not a LanguageId (no entry: every fact takes its default). */
export function languageEntry(lang: LanguageId | null): GrammarTable | undefined {
  return lang === null ? undefined : own(TABLES, lang);
}

export function grammarTable(lang: LanguageId): GrammarTable {
  const t = own(TABLES, lang);
  if (t === undefined) throw new CtxpruneError('UNKNOWN_LANGUAGE', `not a language id: ${JSON.stringify(String(lang))}`);
  return t;
}

/** Control types whose nested `if` alternative continues an else-if chain. */
export const IF_TYPES = S('if_statement', 'if_expression', 'if', 'unless', 'elsif', 'else_if_clause');
/** Field names that hold a body (a block or a single statement). */
export const BODY_FIELDS = S('body', 'consequence');
