// The old Jackson was on both paths, and neither compiling nor running noticed it.
def log = new File(basedir, 'build.log').text
def processorPath = log.readLines().find { it.contains('-processorpath') || it.contains('--processor-path') }
assert processorPath != null : 'the compiler plugin printed no processor path'
assert processorPath.contains('jackson-core-2.13.5.jar') : 'jackson-core 2.13.5 is not on the processor path: ' + processorPath
assert processorPath.contains('iree-stubs-runtime') : 'the runtime is not on the processor path: ' + processorPath
assert new File(basedir, 'target/generated-sources/annotations/it/jackson/Iree_Adder.java').isFile() : 'no stub was generated'
assert log.contains('jackson-core on the class path: 2.13.5') : 'the application did not run with jackson-core 2.13.5'
assert log.contains('sum: [11.0, 22.0, 33.0, 44.0]') : 'the stub did not return the sum'
assert !log.contains('[IreeBadSetup]') && !log.contains('NoSuchMethodError') && !log.contains('NoClassDefFoundError')
return true
