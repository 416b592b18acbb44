// node:crypto: hashes, HMACs, random helpers and their argument errors.
const c = () => require('node:crypto');
const corpus = {
  'sha256 hex': () => c().createHash('sha256').update('abc').digest('hex'),
  'md5 base64': () => c().createHash('md5').update('a').update(Buffer.from('b')).digest('base64'),
  'hash() helper': () => [c().hash('sha1', 'abc'), c().hash('sha256', 'abc', 'base64')],
  'unknown hash': () => c().createHash('nope'),
  'digest twice': () => { const h = c().createHash('sha1'); h.digest(); return h.digest(); },
  'update bad type': () => c().createHash('sha1').update(5),
  'hmac': () => c().createHmac('sha256', 'key').update('data').digest('hex'),
  'hmac bad key': () => c().createHmac('sha256', 5),
  'shake outputLength': () => c().createHash('shake256', { outputLength: 8 }).update('x').digest('hex'),
  'hash copy': () => { const h = c().createHash('sha256').update('a'); const k = h.copy(); h.update('b'); return [h.digest('hex').slice(0, 8), k.digest('hex').slice(0, 8)]; },
  'randomBytes size': () => c().randomBytes(8).length,
  'randomBytes bad size': () => c().randomBytes(-1),
  'randomInt range': () => { const v = c().randomInt(3, 5); return v >= 3 && v < 5; },
  'randomInt bad range': () => c().randomInt(5, 3),
  'randomUUID shape': () => /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(c().randomUUID()),
  'timingSafeEqual': () => [c().timingSafeEqual(Buffer.from('ab'), Buffer.from('ab')), c().timingSafeEqual(Buffer.from('ab'), Buffer.from('ac'))],
  'timingSafeEqual lengths': () => c().timingSafeEqual(Buffer.from('a'), Buffer.from('ab')),
  'pbkdf2Sync': () => c().pbkdf2Sync('pw', 'salt', 10, 16, 'sha256').toString('hex'),
  'pbkdf2Sync bad digest': () => c().pbkdf2Sync('pw', 'salt', 10, 16, 'nope'),
  'getHashes includes': () => ['sha256', 'md5', 'sha3-256'].map((h) => c().getHashes().includes(h)),
};
