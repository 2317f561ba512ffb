import { loadMemoryConfig } from './config';

describe('PGLITE_SHARED_BUFFERS', () => {
  it('is unset by default (PostgreSQL keeps 128MB) and takes any PostgreSQL size with a unit', () => {
    expect(loadMemoryConfig({}).PGLITE_SHARED_BUFFERS).toBeUndefined();
    expect(loadMemoryConfig({ PGLITE_SHARED_BUFFERS: '128MB' }).PGLITE_SHARED_BUFFERS).toBe('128MB');
    expect(loadMemoryConfig({ PGLITE_SHARED_BUFFERS: '1GB' }).PGLITE_SHARED_BUFFERS).toBe('1GB');
  });

  it.each(['512', '512 mb', '0MB', '512MB;fsync=off'])('refuses %j naming the variable', (value) => {
    expect(() => loadMemoryConfig({ PGLITE_SHARED_BUFFERS: value })).toThrow(/PGLITE_SHARED_BUFFERS/);
  });
});
