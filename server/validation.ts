// Validate once at the edge (API, CLI, CSV rows) and report every problem in one message, so a
// form can show each wrong field at once.
import type { z } from 'zod';
import { badRequest } from './errors.js';

export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}

export function parseInput<S extends z.ZodType>(schema: S, data: unknown): z.output<S> {
  const result = schema.safeParse(data);
  if (!result.success) throw badRequest(describeIssues(result.error), result.error.issues);
  return result.data;
}
