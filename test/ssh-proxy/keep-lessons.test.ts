// The lessons a level keeps: each once, the latest place wins, a person's hints outlive model lessons.
import { describe, expect, it } from 'vitest';
import type { Lesson } from '../../schema/protocol.ts';
import { MAX_LESSONS, keepLessons } from '../../ssh-proxy/agent/nodes/keep-lessons.ts';

const model = (text: string): Lesson => ({ text, source: 'model', level: 4 });
const user = (text: string): Lesson => ({ text, source: 'user', level: 4 });

describe('keepLessons', () => {
  it('keeps a lesson learned again once, at its latest place', () => {
    const kept = keepLessons([model('try ls -la'), model('read the readme'), model('Try  ls -la ')]);
    expect(kept.map((l) => l.text)).toEqual(['read the readme', 'Try  ls -la ']);
  });

  it('drops the oldest model lessons past the limit and keeps every hint', () => {
    const many = [user('use `find`'), ...Array.from({ length: MAX_LESSONS + 3 }, (_, i) => model(`lesson ${i}`))];
    const kept = keepLessons(many);
    expect(kept).toHaveLength(MAX_LESSONS);
    expect(kept[0]).toEqual(user('use `find`'));
    expect(kept.at(-1)?.text).toBe(`lesson ${MAX_LESSONS + 2}`);
  });
});
