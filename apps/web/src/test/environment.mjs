// The web tests' jest environment: jsdom plus Node's fetch API (fetch, Request, Response, Headers,
// AbortController/AbortSignal and the web streams), which jsdom lacks and lib/api's ky client needs (ky builds
// a Request and reads a Response; test/fake-api.ts stands in for fetch). AbortController and AbortSignal are
// Node's too because Node's Request accepts only its own signals. jsdom's Blob, File, FormData and FileReader
// stay, so a chosen file still reads and appends as in a browser. (jest-fixed-jsdom swaps Blob and FormData
// but not File or FileReader, which breaks both.)
import { TestEnvironment } from 'jest-environment-jsdom';

export default class JsdomWithFetchEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    const { fetch, Request, Response, Headers, AbortController, AbortSignal, ReadableStream, WritableStream, TransformStream } = globalThis;
    Object.assign(this.global, {
      fetch,
      Request,
      Response,
      Headers,
      AbortController,
      AbortSignal,
      ReadableStream,
      WritableStream,
      TransformStream,
    });
  }
}
