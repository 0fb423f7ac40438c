/** A path template of the contract (`/a/{id}`) read against concrete paths (`/a/7`). */
export interface PathTemplate {
  /** The template as written. */
  template: string;
  /** Whether `pathname` is a path of this template (a parameter is one segment, never empty). */
  test(pathname: string): boolean;
  /**
   * The parameters' values in `pathname`, percent-decoded (one that is not valid percent-encoding as
   * sent); undefined when `pathname` is not a path of this template.
   */
  values(pathname: string): Map<string, string> | undefined;
}

/**
 * Compiles a path template once: the one matcher of the contract's paths (operations found by path, the
 * `Allow` of a path, a request's path parameters).
 * @example pathTemplate('/api/v1/documents/get_document/{document_id}').values('/api/v1/documents/get_document/7')?.get('document_id') // '7'
 */
export function pathTemplate(template: string): PathTemplate {
  const names: string[] = [];
  const re = new RegExp(
    `^${template
      .split(/(\{[^}]+\})/)
      .map((part) => {
        if (!part.startsWith('{')) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        names.push(part.slice(1, -1));
        return '([^/]+)';
      })
      .join('')}$`,
  );
  return {
    template,
    test: (pathname) => re.test(pathname),
    values(pathname) {
      const match = re.exec(pathname);
      if (!match) return undefined;
      return new Map(names.map((name, i) => [name, decoded(match[i + 1]!)]));
    },
  };
}

function decoded(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}
