// Tenancy by x-api-key: each configured key is its own tenant; checked before anything else.
import type { NextFunction, Request, Response } from 'express';
import { sendProblem } from './problems.js';

export function createAuth(keys: readonly string[]) {
  const known = new Set(keys);
  return (req: Request, res: Response, next: NextFunction) => {
    const key = req.get('x-api-key');
    if (key === undefined || !known.has(key)) {
      sendProblem(res, 401, 'unauthorized', 'Send your API key in the x-api-key header.');
      return;
    }
    res.locals.tenant = key;
    next();
  };
}
