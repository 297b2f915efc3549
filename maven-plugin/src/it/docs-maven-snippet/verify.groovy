// The snippet's build generated and compiled the stub; now the quickstart runs, on the runtime
// jar the snippet brings (one jar, no dependencies), from the project's directory as a user would.
def stub = new File(basedir, 'target/generated-sources/annotations/com/acme/Iree_Adder.java')
assert stub.isFile() : 'the processor generated no Iree_Adder'
assert new File(basedir, 'target/generated-sources/annotations/com/acme/Iree_Adder.iree-inputs').isFile() : 'no inputs record for track-models'
def log = new File(basedir, 'build.log').text
assert !log.contains('Source option 5') && !log.contains('[WARNING] COMPILATION WARNING')
def runtime = new File(localRepositoryPath, "dev/ireestubs/iree-stubs-runtime/${projectVersion}/iree-stubs-runtime-${projectVersion}.jar")
assert runtime.isFile() : 'no runtime jar at ' + runtime
def java = new File(System.getProperty('java.home'), 'bin/java').path
def process = new ProcessBuilder(java, '-cp', new File(basedir, 'target/classes').path + File.pathSeparator + runtime.path, 'com.acme.AdderDemo')
    .directory(basedir).redirectErrorStream(true).start()
def output = process.inputStream.getText('UTF-8')
assert process.waitFor() == 0 : 'the quickstart failed:\n' + output
println 'quickstart: ' + output.trim()
assert output.trim() == '[11.0, 22.0, 33.0, 44.0]' : 'the quickstart printed ' + output
return true
