import { ruleTester } from '../tester.js';
import { REFERENCE_CONTRACT } from '../../helpers.js';

ruleTester('description-vague', {
  valid: [
    {},
    REFERENCE_CONTRACT,
    { description: 'Extracts the text of a PDF file.' },
    { description: '把 PDF 文件转换为纯文本。' },
    { description: 'Manages a todo list: add, complete and list tasks stored in todo.json.' },
    { description: 'Runs a SQL query against the analytics Postgres database and returns the rows.' },
  ],
  invalid: [
    { contract: { description: '处理文件' }, errors: [{ path: 'description', message: /vague.*处理.*文件/ }] },
    // The words as written, not their stems (handl, fil).
    { contract: { description: 'Handles files.' }, errors: [{ path: 'description', message: /\(handles, files\)/ }] },
    { contract: { description: 'Does stuff.' }, errors: [{ message: /vague/ }] },
    {
      contract: { description: 'A general utility tool that processes data and handles various files and requests.' },
      errors: [{ message: /vague/ }],
    },
    { contract: { description: '一个通用工具，用于处理各种数据和文件。' }, errors: [{ message: /vague/ }] },
  ],
});
