// Own file: jest gives each test file fresh module state, so these are the first calls the remembered decisions see.
import { assertCallbackAllowed, assertCompanionScheme } from '../src/callback-url';

describe('remembered decisions', () => {
  it('never lets a missing scheme or URL through the remembered-decision shortcuts', () => {
    expect(() => assertCompanionScheme(undefined as unknown as string)).toThrow(
      expect.objectContaining({ code: 'RELAY_INVALID_COMPANION_SCHEME' }),
    );
    expect(() =>
      assertCallbackAllowed(undefined as unknown as string, undefined as unknown as string),
    ).toThrow(expect.objectContaining({ code: 'RELAY_CALLBACK_NOT_ALLOWED' }));
    expect(() => assertCompanionScheme('careapp')).not.toThrow();
    expect(() => assertCompanionScheme('https')).toThrow();
    expect(() => assertCallbackAllowed('http://127.0.0.1:1/cb', 'careapp')).not.toThrow();
    expect(() => assertCallbackAllowed('http://127.0.0.1:1/cb', 'myapp')).not.toThrow();
    expect(() => assertCallbackAllowed('myapp://x', 'careapp')).toThrow();
    expect(() => assertCallbackAllowed('myapp://x', 'myapp')).not.toThrow();
    expect(() => assertCallbackAllowed('myapp://x', 'careapp')).toThrow();
  });
});
