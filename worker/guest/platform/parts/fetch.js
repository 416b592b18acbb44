// The Fetch Standard: fetch() (sent by the host under the `fetch` policy), its classes and the
// File API: Headers, Request, Response, FormData, Blob, File.
import { Blob, File } from './fetch/blob.js';
import { FormData } from './fetch/form-data.js';
import { Headers } from './fetch/headers.js';
import { Request } from './fetch/request.js';
import { Response } from './fetch/response.js';
import { fetch } from './fetch/fetch.js';

export const globals = { Blob, File, FormData, Headers, Request, Response, fetch };
export const modules = {};
