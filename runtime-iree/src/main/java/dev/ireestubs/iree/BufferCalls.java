package dev.ireestubs.iree;

import static dev.ireestubs.iree.NativeSymbols.rethrow;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * Downcalls for HAL buffers ({@code iree/hal/allocator.h}, {@code buffer.h}, {@code
 * buffer_transfer.h}): importing host memory without a copy (and the buffer view over the import),
 * mapping and reading result buffers, device-to-host transfers. Callers pass valid handles.
 */
final class BufferCalls {

  private final MethodHandle deviceTransferD2h;
  private final MethodHandle bufferRelease;
  private final MethodHandle allocatorImportBuffer;
  private final MethodHandle bufferViewCreate;
  private final MethodHandle bufferMapRange;
  private final MethodHandle bufferUnmapRange;
  private final MethodHandle bufferMapRead;

  BufferCalls(NativeSymbols symbols) {
    deviceTransferD2h =
        symbols.bind(
            "iree_hal_device_transfer_d2h",
            FunctionDescriptor.of(
                JAVA_LONG,
                ADDRESS,
                ADDRESS,
                JAVA_LONG,
                ADDRESS,
                JAVA_LONG,
                JAVA_INT,
                Layouts.TIMEOUT));
    bufferRelease = symbols.bind("iree_hal_buffer_release", FunctionDescriptor.ofVoid(JAVA_LONG));
    allocatorImportBuffer =
        symbols.bind(
            "iree_hal_allocator_import_buffer",
            FunctionDescriptor.of(
                JAVA_LONG,
                ADDRESS,
                Layouts.BUFFER_PARAMS,
                ADDRESS,
                Layouts.RELEASE_CALLBACK,
                ADDRESS));
    bufferViewCreate =
        symbols.bind(
            "iree_hal_buffer_view_create",
            FunctionDescriptor.of(
                JAVA_LONG,
                JAVA_LONG,
                JAVA_LONG,
                ADDRESS,
                JAVA_INT,
                JAVA_INT,
                Layouts.ALLOCATOR,
                ADDRESS));
    bufferMapRange =
        symbols.bind(
            "iree_hal_buffer_map_range",
            FunctionDescriptor.of(
                JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_SHORT, JAVA_LONG, JAVA_LONG, ADDRESS));
    bufferMapRead =
        symbols.bind(
            "iree_hal_buffer_map_read",
            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG));
    bufferUnmapRange =
        symbols.bind("iree_hal_buffer_unmap_range", FunctionDescriptor.of(JAVA_LONG, ADDRESS));
  }

  long deviceTransferD2h(
      MemorySegment device,
      MemorySegment buffer,
      long sourceOffset,
      MemorySegment target,
      long length,
      int flags,
      MemorySegment timeout) {
    try {
      return (long)
          deviceTransferD2h.invokeExact(
              device, buffer, sourceOffset, target, length, flags, timeout);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  void bufferRelease(long buffer) {
    try {
      bufferRelease.invokeExact(buffer);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  long allocatorImportBuffer(
      MemorySegment allocator,
      MemorySegment params,
      MemorySegment externalBuffer,
      MemorySegment releaseCallback,
      MemorySegment outBuffer) {
    try {
      return (long)
          allocatorImportBuffer.invokeExact(
              allocator, params, externalBuffer, releaseCallback, outBuffer);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  long bufferViewCreate(
      long buffer,
      long rank,
      MemorySegment shape,
      int elementType,
      int encodingType,
      MemorySegment hostAllocator,
      MemorySegment outBufferView) {
    try {
      return (long)
          bufferViewCreate.invokeExact(
              buffer, rank, shape, elementType, encodingType, hostAllocator, outBufferView);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  long bufferMapRange(
      long buffer,
      int mappingMode,
      short access,
      long offset,
      long length,
      MemorySegment outMapping) {
    try {
      return (long)
          bufferMapRange.invokeExact(buffer, mappingMode, access, offset, length, outMapping);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  /** {@code iree_hal_buffer_map_read}: {@code length} bytes to host memory at {@code target}. */
  long bufferMapRead(long buffer, long offset, long target, long length) {
    try {
      return (long) bufferMapRead.invokeExact(buffer, offset, target, length);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  long bufferUnmapRange(MemorySegment mapping) {
    try {
      return (long) bufferUnmapRange.invokeExact(mapping);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }
}
