import { parseDocument } from 'yaml';

/** A Markdown file split into its YAML front matter and body. */
export interface FrontMatterFile {
  data: Record<string, unknown>;
  body: string;
}

/** Thrown when the front matter is missing or is not a YAML mapping; `line` is 1-based in the file. */
export class FrontMatterError extends Error {
  constructor(
    message: string,
    readonly line?: number,
  ) {
    super(line === undefined ? message : `${message} (line ${line})`);
    this.name = 'FrontMatterError';
  }
}

const OPEN = /^\uFEFF?---[ \t]*\r?\n/;
const CLOSE = /^---[ \t]*$/m;

/**
 * Splits `---\n<yaml>\n---\n<body>`. YAML is parsed with the core schema and no custom tags, aliases
 * capped, so a manifest cannot run code or expand into a huge document.
 */
export function parseFrontMatter(text: string): FrontMatterFile {
  const open = OPEN.exec(text);
  if (!open)
    throw new FrontMatterError('the file must start with a YAML front matter block opened by "---"', 1);
  const rest = text.slice(open[0].length);
  const close = CLOSE.exec(rest);
  if (!close) throw new FrontMatterError('the YAML front matter is not closed by a "---" line');
  const yamlText = rest.slice(0, close.index);
  const body = rest.slice(close.index + close[0].length).replace(/^\r?\n/, '');
  const doc = parseDocument(yamlText, { schema: 'core', uniqueKeys: true, prettyErrors: true });
  if (doc.errors.length) {
    const err = doc.errors[0];
    const line = err.linePos?.[0]?.line;
    throw new FrontMatterError(
      `invalid YAML: ${err.message.split('\n')[0]}`,
      line === undefined ? undefined : line + 1,
    );
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 50 });
  } catch (err) {
    // Unresolved or excessive aliases surface only when converting.
    throw new FrontMatterError(`invalid YAML: ${(err as Error).message.split('\n')[0]}`);
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw new FrontMatterError('the front matter must be a YAML mapping of keys to values', 2);
  }
  return { data: data as Record<string, unknown>, body: body.trim() };
}
