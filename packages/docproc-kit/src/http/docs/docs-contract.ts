/** A JSON value as parsed from the contract. */
type Json = Record<string, unknown>;

interface ExampleObject {
  summary?: string;
  value?: unknown;
}

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

// Where a parameter's example goes instead: into its description, for people to read and copy.
function describeExamples(parameter: Json): string | undefined {
  const shown: string[] = [];
  if ('example' in parameter) shown.push(`\`${String(parameter.example)}\``);
  for (const example of Object.values(isObject(parameter.examples) ? parameter.examples : {})) {
    if (!isObject(example) || !('value' in example)) continue;
    const { summary, value } = example as ExampleObject;
    shown.push(`\`${String(value)}\`${summary ? ` (${summary})` : ''}`);
  }
  return shown.length ? `Example: ${shown.join('; ')}. Not filled in for you: send it only if you mean it.` : undefined;
}

function withoutExamples(parameter: unknown): unknown {
  if (!isObject(parameter) || '$ref' in parameter) return parameter;
  const { example: _example, examples: _examples, ...rest } = parameter;
  const notes: string[] = [];
  // Swagger UI fills a schema default in as well; the server applies it anyway when nothing is sent.
  if (isObject(rest.schema) && 'default' in rest.schema) {
    const { default: value, ...schema } = rest.schema;
    rest.schema = schema;
    notes.push(`Default when not sent: \`${String(value)}\`.`);
  }
  const examples = describeExamples(parameter);
  if (examples) notes.push(examples);
  if (!notes.length) return parameter;
  const description = [typeof rest.description === 'string' ? rest.description.trimEnd() : '', ...notes].filter(Boolean).join('\n\n');
  return { ...rest, description };
}

/**
 * The contract as the /docs page is given it: every parameter's `example`/`examples` (and schema
 * `default`) moved into its description. Swagger UI's "Try it out" pre-fills parameters from their examples and sends them, so
 * a second upload reused the example Idempotency-Key (409 or a silent replay) and a list sent the
 * example `search` and `status_filter`; now the page sends only what the person typed. The
 * contract itself (and /openapi.json) keeps its examples for Prism and generators.
 * @example res.json(docsContract(contract));
 */
export function docsContract(contract: Json): Json {
  const copy = structuredClone(contract);
  const components = isObject(copy.components) ? copy.components : {};
  if (isObject(components.parameters)) {
    for (const [name, parameter] of Object.entries(components.parameters)) components.parameters[name] = withoutExamples(parameter);
  }
  for (const item of Object.values(isObject(copy.paths) ? copy.paths : {})) {
    if (!isObject(item)) continue;
    if (Array.isArray(item.parameters)) item.parameters = item.parameters.map(withoutExamples);
    for (const operation of Object.values(item)) {
      if (isObject(operation) && Array.isArray(operation.parameters)) operation.parameters = operation.parameters.map(withoutExamples);
    }
  }
  return copy;
}
