type Schema = Record<string, unknown>;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The schema itself and every allOf/anyOf/oneOf branch below it that could describe an object. */
function objectBranches(schema: Schema): Schema[] {
  const out: Schema[] = [schema];
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (Array.isArray(branches)) for (const b of branches) if (isObject(b)) out.push(...objectBranches(b));
  }
  return out;
}

/**
 * JSON pointers of properties in `value` that `schema` does not declare (anywhere in its allOf/anyOf/oneOf),
 * skipping objects whose schema allows additional properties explicitly.
 * @example undocumentedProperties(documentSchema, { document_id: 1, extra: true }) // ['/extra']
 */
export function undocumentedProperties(schema: unknown, value: unknown, path = ''): string[] {
  if (!isObject(schema)) return [];
  const branches = objectBranches(schema);
  if (Array.isArray(value)) {
    const items = branches.map((b) => b.items).filter(isObject);
    return value.flatMap((item, i) => items.flatMap((s) => undocumentedProperties(s, item, `${path}/${i}`)));
  }
  if (!isObject(value)) return [];
  const declared = new Map<string, Schema[]>();
  // A property whose schema is `false` is forbidden, not undocumented: forbiddenProperties reports it.
  const forbidden = new Set<string>();
  let open = false;
  for (const branch of branches) {
    const props = branch.properties;
    if (isObject(props))
      for (const [name, s] of Object.entries(props)) {
        if (isObject(s)) declared.set(name, [...(declared.get(name) ?? []), s]);
        else if (s === false) forbidden.add(name);
      }
    if (isObject(branch.additionalProperties) || branch.additionalProperties === true || isObject(branch.patternProperties)) open = true;
  }
  // A schema that says nothing about properties (e.g. the null branch of a oneOf) declares nothing to compare with.
  if (declared.size === 0) return [];
  const extra = open
    ? []
    : Object.keys(value)
        .filter((k) => !declared.has(k) && !forbidden.has(k))
        .map((k) => `${path}/${k}`);
  const nested = [...declared].flatMap(([name, schemas]) =>
    name in value ? schemas.flatMap((s) => undocumentedProperties(s, value[name], `${path}/${name}`)) : [],
  );
  return [...extra, ...new Set(nested)];
}

/**
 * JSON pointers of properties in `value` that `schema` forbids by name (`properties: { name: false }`, in
 * any allOf/anyOf/oneOf branch), at any depth.
 * @example forbiddenProperties(documentSummarySchema, { document_id: 1, content: 'x' }) // ['/content']
 */
export function forbiddenProperties(schema: unknown, value: unknown, path = ''): string[] {
  if (!isObject(schema)) return [];
  const branches = objectBranches(schema);
  if (Array.isArray(value)) {
    const items = branches.map((b) => b.items).filter(isObject);
    return value.flatMap((item, i) => items.flatMap((s) => forbiddenProperties(s, item, `${path}/${i}`)));
  }
  if (!isObject(value)) return [];
  const found = new Set<string>();
  for (const branch of branches) {
    const props = branch.properties;
    if (!isObject(props)) continue;
    for (const [name, s] of Object.entries(props)) {
      if (!(name in value)) continue;
      if (s === false) found.add(`${path}/${name}`);
      else for (const nested of forbiddenProperties(s, value[name], `${path}/${name}`)) found.add(nested);
    }
  }
  return [...found];
}
