// Builds the project a new user would: a minimal pom.xml around the Maven snippet of the docs,
// README's quickstart sources, and the module they name (written by test-support's DocBlocks).
import dev.ireestubs.testing.DocBlocks
import java.nio.file.Files

def root = new File(docsRoot).canonicalFile
def marker = ~/(?s)<!-- maven:project[^>]*-->\s*\n```xml\n(.*?)```/
def snippets = [:]
(['README.md'] + new File(root, 'docs').listFiles().findAll { it.name.endsWith('.md') }.collect { 'docs/' + it.name }.sort()).each { page ->
  def m = new File(root, page).getText('UTF-8') =~ marker
  m.each { snippets[page] = it[1] }
}
assert snippets.containsKey('README.md') : 'README.md has no <!-- maven:project --> snippet'
def readme = snippets['README.md']
assert snippets.size() == 1 : "the Maven snippet is README's alone (docs/setup.md explains it); found in ${snippets.keySet()}"

println "Maven snippet found in ${snippets.keySet()}"

new File(basedir, 'pom.xml').setText("""<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
<modelVersion>4.0.0</modelVersion>
<groupId>com.acme</groupId>
<artifactId>docs-maven-snippet</artifactId>
<version>1</version>
${readme}</project>
""", 'UTF-8')

def quickstart = DocBlocks.blocks('unit', null).findAll { it.page() == 'README.md' && it.marker().startsWith('quickstart:') }
assert quickstart.size() == 2 : 'README.md should have two quickstart blocks, has ' + quickstart.size()
quickstart.each { b ->
  def f = new File(basedir, 'src/main/java/' + DocBlocks.path(b))
  f.parentFile.mkdirs()
  f.setText(b.code(), 'UTF-8')
}
DocBlocks.writeModels(new File(basedir, 'src/main/resources').toPath())
return true
