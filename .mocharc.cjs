// The mocha config of the npm scripts: .mocharc.json (also the one for running a file by hand),
// and when CI is set, a stray `.only` fails the run instead of quietly running one test.
module.exports = { ...require("./.mocharc.json"), forbidOnly: Boolean(process.env.CI) };
