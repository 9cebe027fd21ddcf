// Who answered a pause: a first-party client's header becomes its plain name, anything else is an
// API client, and logs written with the old transport names still read as a person would say them.
import { describe, expect, it } from 'vitest';
import { answeredBy, answererText } from '../../schema/answered-by.ts';

describe('answeredBy', () => {
  it('names the web UI and the CLI by their header, and every other request an API client', () => {
    expect(answeredBy('web')).toBe('the web UI');
    expect(answeredBy(' CLI ')).toBe('the CLI');
    for (const other of [undefined, null, '', 'rest', 'socket', 'the CLI', 'x'.repeat(500)])
      expect(answeredBy(other)).toBe('an API client');
  });
});

describe('answererText', () => {
  it('reads old logs: transport names as an API client, onPause as the run itself', () => {
    expect(answererText('rest')).toBe('an API client');
    expect(answererText('socket')).toBe('an API client');
    expect(answererText('onPause')).toBe('the run itself (onPause "stop")');
  });

  it('leaves every other name as stored', () => {
    for (const by of ['the web UI', 'the CLI', 'an API client', 'the queue', 'person'])
      expect(answererText(by)).toBe(by);
  });
});
