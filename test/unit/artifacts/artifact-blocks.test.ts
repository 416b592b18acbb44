// MCP content blocks of artifacts (reference mcp-v8 §1.5) and the URLs handed out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { downloadUrl, linkBlock, payloadBlock } from '../../../supervisor/mcp/artifact-blocks.ts';
import { uploadUrl } from '../../../supervisor/artifacts/upload-url.ts';
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

test('rule messages read naturally in scripts', () => {
  assert.equal(scriptMessage('artifact payload of 9 bytes exceeds the limit'), 'artifact: payload of 9 bytes exceeds the limit');
  assert.equal(scriptMessage("invalid mime type 'png'"), "artifact: invalid mime type 'png'");
});
