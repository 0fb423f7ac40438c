import { readInteger } from '@docproc-kit/contract/decimal-integer.js';
import type { Contract, ContractOperation } from '@docproc-kit/contract/load-contract.js';
import { pathTemplate } from '@docproc-kit/contract/path-template.js';
import type { OpenAPIV3_1 } from 'openapi-types';
import { checks } from '../checks/index.js';
import type { AnyCheck } from '../definitions/check.js';
import { fail } from '../definitions/check.js';
import { describeResponse, show } from '../definitions/describe.js';
import type { Exchange } from '../definitions/exchange.js';
import type { ObservedExchange } from './observed-exchange.js';
import type { Verdict } from './verdicts.js';

/** The suite's check that says how the service must answer a request broken in this operation's way. */
const INVALID_PARAMETER_CHECK: Record<string, AnyCheck> = {
  listDocuments: checks.list.rejectsInvalidParams,
  getDocument: checks.get.rejectsInvalidId,
  retryDocument: checks.retry.rejectsInvalidId,
};

// Parameters are text on the wire; an integer's is read by the contract's rule, a leading zero or `+`
// (which the contract lets a service read either way) as the number, so only what every service refuses is
// the client's violation.
function typed(schema: OpenAPIV3_1.SchemaObject | undefined, raw: string): unknown {
  if (schema?.type !== 'integer') return raw;
  return readInteger(raw, { plus: true }) ?? raw;
}

/** Every way the request's parameters break their documented schemas (empty when none). */
function parameterProblems(op: ContractOperation, seen: ObservedExchange, headers: Headers, contract: Contract): string[] {
  const [pathname, search = ''] = seen.url.split(/\?(.*)/s) as [string, string?];
  const query = new URLSearchParams(search);
  const path = pathTemplate(op.path).values(pathname) ?? new Map<string, string>();
  const problems: string[] = [];
  for (const p of (op.definition.parameters ?? []) as OpenAPIV3_1.ParameterObject[]) {
    const schema = p.schema as OpenAPIV3_1.SchemaObject | undefined;
    const values =
      p.in === 'query'
        ? query.getAll(p.name)
        : p.in === 'path'
          ? [path.get(p.name)].filter((v) => v !== undefined)
          : p.in === 'header' && headers.has(p.name)
            ? [headers.get(p.name)!]
            : [];
    if (values.length > 1) problems.push(`${p.in} parameter ${p.name} given ${values.length} times (at most once)`);
    else if (values.length === 0 && p.required) problems.push(`${p.in} parameter ${p.name} is missing`);
    else if (values.length === 1 && schema) {
      const result = contract.validate(schema, typed(schema, values[0]!));
      if (!result.valid) problems.push(`${p.in} parameter ${p.name}=${show(values[0])}: ${result.errors.join('; ')}`);
    }
  }
  return problems;
}

/** The multipart fields the operation's request body documents, by whether they are required. */
function documentedFields(op: ContractOperation): { names: string[]; required: string[] } {
  const body = op.definition.requestBody as OpenAPIV3_1.RequestBodyObject | undefined;
  const schema = body?.content?.['multipart/form-data']?.schema as OpenAPIV3_1.SchemaObject | undefined;
  return { names: Object.keys(schema?.properties ?? {}), required: schema?.required ?? [] };
}

/**
 * The request side of one exchange: a request the contract does not allow (an invalid parameter, a file
 * under another field than the documented one, no file at all, no key) is a client violation under the
 * suite's check for it, and the service answering it with a success is a service violation of that check.
 * @example judgeRequest(seen, exchange, contract).filter((v) => v.kind === 'violation' && v.side === 'client')
 */
export function judgeRequest(seen: ObservedExchange, exchange: Exchange, contract: Contract): Verdict[] {
  const target = exchange.target;
  if (target.kind !== 'operation') return [];
  const op = contract.operation(target.operationId!)!;
  const headers = new Headers();
  for (let i = 0; i < seen.requestRawHeaders.length; i += 2) headers.append(seen.requestRawHeaders[i]!, seen.requestRawHeaders[i + 1]!);
  const broken: Array<{ check: AnyCheck; problem: string; answer: string }> = [];
  if (!headers.has('x-api-key'))
    broken.push({ check: checks.auth.missingKey, problem: 'no x-api-key header', answer: '401 (every request carries x-api-key)' });
  const invalid = INVALID_PARAMETER_CHECK[op.operationId];
  const problems = parameterProblems(op, seen, headers, contract);
  if (problems.length > 0 && invalid)
    broken.push({ check: invalid, problem: problems.join('\n'), answer: '400 (the parameter is invalid)' });
  if (seen.requestBody.kind === 'multipart' && !seen.requestBody.tapped.malformed) {
    const fields = documentedFields(op);
    const parts = seen.requestBody.tapped.parts;
    const stray = parts.filter((p) => p.filename !== undefined && !fields.names.includes(p.name ?? ''));
    if (stray.length > 0 && fields.names.length > 0)
      broken.push({
        check: checks.upload.wrongField,
        problem: `a file under ${stray.map((p) => show(p.name ?? '(no name)')).join(', ')}`,
        answer: `400 (files go under ${fields.names.map((n) => show(n)).join(', ')} only)`,
      });
    const missing = fields.required.filter((name) => !parts.some((p) => p.name === name));
    if (missing.length > 0 && stray.length === 0)
      broken.push({
        check: checks.upload.noFiles,
        problem: `no ${missing.map((n) => show(n)).join(', ')} part`,
        answer: '400 (an upload carries files)',
      });
  }
  return broken.flatMap(({ check, problem, answer }): Verdict[] => {
    const verdicts: Verdict[] = [
      { kind: 'violation', check, side: 'client', finding: fail(`the request sent ${problem}`, 'a request the contract allows') },
    ];
    if (exchange.status < 400)
      verdicts.push({ kind: 'violation', check, side: 'service', finding: fail(describeResponse(exchange), answer) });
    return verdicts;
  });
}
