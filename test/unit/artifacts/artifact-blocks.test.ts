// MCP content blocks of artifacts (reference mcp-v8 §1.5) and the URLs handed out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { downloadUrl, linkBlock, payloadBlock, requestOrigin } from '../../../supervisor/mcp/artifact-blocks.ts';
import { redactUploadTokens, uploadUrl } from '../../../supervisor/artifacts/upload-url.ts';
import { scriptMessage } from '../../../shared/artifact-rules.ts';

const meta = (mime: string, size = 3) => ({ key: 'k.bin', mime_type: mime, size_bytes: size, created_at: '2026-01-01T00:00:00.000Z', execution_id: null });

test('the block follows the mime type; parameters are dropped from mimeType', () => {
  const bytes = new Uint8Array([1, 2, 3]);
  assert.deepEqual(payloadBlock(meta('image/svg+xml; charset=utf-8'), bytes), { block: { type: 'image', data: 'AQID', mimeType: 'image/svg+xml' }, encoding: 'image' });
  assert.deepEqual(payloadBlock(meta('audio/wav'), bytes), { block: { type: 'audio', data: 'AQID', mimeType: 'audio/wav' }, encoding: 'audio' });
  assert.deepEqual(payloadBlock(meta('application/json'), Buffer.from('{"a":1}')), { block: { type: 'text', text: '{"a":1}' }, encoding: 'utf-8' });
  assert.deepEqual(payloadBlock(meta('text/plain'), new Uint8Array([0xc3])), { block: { type: 'text', text: 'ww==' }, encoding: 'base64' });
});

test('URLs: absolute on --public-url (trailing slashes ignored), else paths', () => {
  assert.equal(downloadUrl('a.png', undefined), '/api/artifacts/a.png');
  assert.equal(downloadUrl('a.png', 'https://x.example/base/'), 'https://x.example/base/api/artifacts/a.png');
  assert.equal(uploadUrl('tok', ''), '/api/artifact-uploads/tok');
  assert.equal(uploadUrl('tok', 'https://x.example'), 'https://x.example/api/artifact-uploads/tok');
  assert.equal((linkBlock(meta('video/mp4'), 'https://x.example') as { uri: string }).uri, 'https://x.example/api/artifacts/k.bin');
});

test('declared binary and text with control characters are base64, even when the bytes decode as UTF-8', () => {
  assert.deepEqual(payloadBlock(meta('application/octet-stream'), new Uint8Array(3)), { block: { type: 'text', text: 'AAAA' }, encoding: 'base64' });
  assert.deepEqual(payloadBlock(meta('application/octet-stream'), Buffer.from('abc')), { block: { type: 'text', text: 'YWJj' }, encoding: 'base64' });
  assert.deepEqual(payloadBlock(meta('text/plain'), Buffer.from('a\u0000b')), { block: { type: 'text', text: 'YQBi' }, encoding: 'base64' });
  assert.deepEqual(payloadBlock(meta('text/plain'), Buffer.from('a\u007fb')), { block: { type: 'text', text: 'YX9i' }, encoding: 'base64' });
  assert.deepEqual(payloadBlock(meta('text/csv'), Buffer.from('a\tb\r\nc\n')), { block: { type: 'text', text: 'a\tb\r\nc\n' }, encoding: 'utf-8' });
});

test('resource_link URIs: absolute on a base URL, else a path the description explains', () => {
  const absolute = linkBlock(meta('video/mp4', 2_000_000), requestOrigin(new URL('http://127.0.0.1:8080/mcp?x=1'))) as { uri: string; description: string };
  assert.equal(absolute.uri, 'http://127.0.0.1:8080/api/artifacts/k.bin');
  assert.equal(absolute.description, "Artifact 'k.bin' (2000000 bytes): too large to inline (over 1048576 bytes); download it over REST.");
  const relative = linkBlock(meta('video/mp4', 2_000_000), requestOrigin(undefined)) as { uri: string; description: string };
  assert.equal(relative.uri, '/api/artifacts/k.bin');
  assert.equal(relative.description, "Artifact 'k.bin' (2000000 bytes): too large to inline (over 1048576 bytes); download it over REST. The URI is a path on this server's HTTP listener (REST under /api).");
});

test('upload tokens are redacted from logged URLs', () => {
  assert.equal(redactUploadTokens('/api/artifact-uploads/AbC-_x9?q=1'), '/api/artifact-uploads/<token>?q=1');
  assert.equal(redactUploadTokens('/api/artifact-uploads/AbC-_x9'), '/api/artifact-uploads/<token>');
  assert.equal(redactUploadTokens('/api/artifacts/chart.png'), '/api/artifacts/chart.png');
});

test('rule messages read naturally in scripts', () => {
  assert.equal(scriptMessage('artifact payload of 9 bytes exceeds the limit'), 'artifact: payload of 9 bytes exceeds the limit');
  assert.equal(scriptMessage("invalid mime type 'png'"), "artifact: invalid mime type 'png'");
});
