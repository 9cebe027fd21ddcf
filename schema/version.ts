// The version of bandit-runner that wrote an archive or answers an API; kept equal to package.json's
// by a test (test/schema/artifacts.test.ts).
export const APP_VERSION = '0.1.0';
