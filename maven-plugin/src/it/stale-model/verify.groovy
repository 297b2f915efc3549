// Build 3 (the changed model) must have failed on the mismatch after the plugin said why, and
// build 4 (the original model back) must have recompiled the interface again.
def log = new File(basedir, 'build.log').text
assert log.contains('adder.abi.json changed since Iree_Adder was generated') : 'the plugin did not notice the changed model'
assert log.contains('[IreeSignatureMismatch]') : 'the processor did not report the mismatch'
assert log.count('Nothing to compile - all classes are up to date') == 1 : 'only build 2 should have had nothing to compile'
assert new File(basedir, 'target/classes/it/stale/Iree_Adder.class').isFile() : 'build 4 did not compile the stub again'
return true
