// One failure vocabulary for every tool surface (src/tools/errors.ts): what MCP sends as text, and what GPT Actions
// and the agent send as {success: false, message, error, field?, retryable?}.
import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors.ts';
import { errorText, failureOf, invalidArgumentsText, unknownToolText } from '../../src/tools/errors.ts';

const HUGE = 'p'.repeat(5000);
const CUT = `'${'p'.repeat(100)}…'`;

describe('errorText', () => {
  it('names a field by the argument, without where REST would read it', () => {
    const err = new AppError('validation', [
      { loc: ['body', 'platforms', 0], msg: 'Unknown network', type: 'value_error' },
      { loc: ['query', 'limit'], msg: 'Too big', type: 'value_error' },
      { loc: ['body'], msg: 'Empty', type: 'missing' },
    ]);
    expect(errorText(err)).toBe('platforms.0: Unknown network; limit: Too big; arguments: Empty');
  });

  it('a plan gate in the documented wording, a message as it is, a plain detail as it is', () => {
    expect(
      errorText(new AppError('plan_required', { error: 'plan_required', feature: 'inbox_enabled', plan: 'free' })),
    ).toBe('Plan upgrade required for: inbox_enabled');
    expect(errorText(new AppError('bad_request', { error: 'VALIDATION_ERROR', message: 'text is required.' }))).toBe(
      'text is required.',
    );
    expect(errorText(new AppError('not_found', 'No such draft.'))).toBe('No such draft.');
  });

  it('echoes what the caller sent at most 100 characters long, as REST does', () => {
    expect(errorText(new AppError('bad_request', `Invalid or unsupported platform: '${HUGE}'.`))).toBe(
      `Invalid or unsupported platform: ${CUT}.`,
    );
    expect(
      errorText(
        new AppError('validation', [{ loc: ['platform'], msg: `Unknown network '${HUGE}'`, type: 'value_error' }]),
      ),
    ).toBe(`platform: Unknown network ${CUT}`);
    expect(unknownToolText(HUGE)).toBe(`Unknown tool: ${CUT}`);
    expect(invalidArgumentsText('publish', `platform: '${HUGE}'`)).toBe(
      `Invalid arguments for publish: platform: ${CUT}`,
    );
  });
});

describe('failureOf', () => {
  it('carries the code, the field a service names, and whether a retry may succeed', () => {
    expect(
      failureOf(
        new AppError('bad_request', {
          error: 'VALIDATION_ERROR',
          field: 'platform_overrides_json',
          message: 'platform_overrides_json: not valid JSON',
        }),
      ),
    ).toEqual({
      success: false,
      message: 'platform_overrides_json: not valid JSON',
      error: 'bad_request',
      field: 'platform_overrides_json',
    });
    expect(failureOf(new AppError('internal', 'Try later.'))).toEqual({
      success: false,
      message: 'Try later.',
      error: 'internal',
      retryable: true,
    });
  });
});
