import { describe, expect, it } from 'vitest';
import { streamsEndpoint } from './streams-client';

describe('streamsEndpoint', () => {
  it.each([
    ['http://127.0.0.1:8000', 'http://127.0.0.1:8000'],
    ['http://localhost:8000/', 'http://localhost:8000/'],
    ['https://dynamodb.eu-west-1.amazonaws.com', 'https://streams.dynamodb.eu-west-1.amazonaws.com'],
    ['https://dynamodb.cn-north-1.amazonaws.com.cn', 'https://streams.dynamodb.cn-north-1.amazonaws.com.cn'],
  ])('%s → %s', (table, streams) => {
    expect(streamsEndpoint(table)).toBe(streams);
  });
});
