// Every error leaves as an RFC 9457 problem with a stable code.
import type { Response } from 'express';

export interface FieldError {
  in: 'query' | 'path' | 'body' | 'header';
  name: string;
  message: string;
}

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export function sendProblem(res: Response, status: number, code: string, detail: string, errors?: FieldError[]): void {
  const body = {
    type: 'about:blank',
    title: TITLES[status] ?? 'Error',
    status,
    detail,
    code,
    instance: res.req.path,
    request_id: String(res.getHeader('X-Request-Id') ?? ''),
    ...(errors ? { errors } : {}),
  };
  res.status(status).type('application/problem+json').send(JSON.stringify(body));
}

export function sendInvalid(res: Response, errors: FieldError[]): void {
  const n = errors.length;
  sendProblem(res, 400, 'invalid_request', `The request has ${n} invalid parameter${n === 1 ? '' : 's'}.`, errors);
}
