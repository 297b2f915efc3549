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
 * Downcalls for HAL buffer views and buffers ({@code iree/hal/buffer_view.h}, {@code
 * buffer_view_util.h}, {@code buffer_transfer.h}, {@code allocator.h}, {@code buffer.h}): creating,
 * importing, reading and mapping the bytes of arrays. Callers pass valid handles.
 */
final class BufferViewCalls {

  // iree/hal/buffer_view.h, buffer_view_util.h, buffer_transfer.h
  private final MethodHandle bufferViewAllocateBufferCopy;
  private final MethodHandle bufferViewRelease;
  private final MethodHandle bufferViewRetain;
  private final MethodHandle bufferViewBuffer;
  private final MethodHandle bufferViewShapeRank;
  private final MethodHandle bufferViewShapeDim;
  private final MethodHandle bufferViewElementType;
  private final MethodHandle bufferViewEncodingType;
  private final MethodHandle bufferViewByteLength;
  private final MethodHandle deviceTransferD2h;
  private final MethodHandle bufferRelease;
  private final MethodHandle allocatorImportBuffer;
  private final MethodHandle bufferViewCreate;
  private final MethodHandle bufferMapRange;
  private final MethodHandle bufferUnmapRange;
  private final MethodHandle bufferMapRead;

  BufferViewCalls(NativeSymbols symbols) {
    // iree/hal/buffer_view.h, buffer_view_util.h, buffer_transfer.h
    bufferViewAllocateBufferCopy =
        symbols.bind(
            "iree_hal_buffer_view_allocate_buffer_copy",
            FunctionDescriptor.of(
                JAVA_LONG,
                ADDRESS,
                ADDRESS,
                JAVA_LONG,
                ADDRESS,
                JAVA_INT,
                JAVA_INT,
                Layouts.BUFFER_PARAMS,
                Layouts.BYTE_SPAN,
                ADDRESS));
    bufferViewRelease =
        symbols.bind("iree_hal_buffer_view_release", FunctionDescriptor.ofVoid(JAVA_LONG));
    bufferViewRetain =
        symbols.bindCritical("iree_hal_buffer_view_retain", FunctionDescriptor.ofVoid(JAVA_LONG));
    bufferViewBuffer =
        symbols.bindCritical("iree_hal_buffer_view_buffer", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG));
    bufferViewShapeRank =
        symbols.bindCritical(
            "iree_hal_buffer_view_shape_rank", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG));
    bufferViewShapeDim =
        symbols.bindCritical(
            "iree_hal_buffer_view_shape_dim",
            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG));
    bufferViewElementType =
        symbols.bindCritical(
            "iree_hal_buffer_view_element_type", FunctionDescriptor.of(JAVA_INT, JAVA_LONG));
    bufferViewEncodingType =
        symbols.bindCritical(
            "iree_hal_buffer_view_encoding_type", FunctionDescriptor.of(JAVA_INT, JAVA_LONG));
    bufferViewByteLength =
        symbols.bindCritical(
            "iree_hal_buffer_view_byte_length", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG));
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

    // Zero-copy import and mapped results (iree/hal/allocator.h, buffer.h)
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
                JAVA_LONG, JAVA_LONG, JAVA_LONG, ADDRESS, JAVA_INT, JAVA_INT, Layouts.ALLOCATOR,
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

  // ----------------------------------------------------------------------------------------------
  // Buffer views

  long bufferViewAllocateBufferCopy(
      MemorySegment device,
      MemorySegment deviceAllocator,
      long rank,
      MemorySegment shape,
      int elementType,
      int encodingType,
      MemorySegment bufferParams,
      MemorySegment initialData,
      MemorySegment outBufferView) {
    try {
      return (long)
          bufferViewAllocateBufferCopy.invokeExact(
              device,
              deviceAllocator,
              rank,
              shape,
              elementType,
              encodingType,
              bufferParams,
              initialData,
              outBufferView);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  void bufferViewRelease(long bufferView) {
    try {
      bufferViewRelease.invokeExact(bufferView);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  void bufferViewRetain(long bufferView) {
    try {
      bufferViewRetain.invokeExact(bufferView);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }


  long bufferViewBuffer(long bufferView) {
    try {
      return (long) bufferViewBuffer.invokeExact(bufferView);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  long bufferViewShapeRank(long bufferView) {
    try {
      return (long) bufferViewShapeRank.invokeExact(bufferView);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  long bufferViewShapeDim(long bufferView, long index) {
    try {
      return (long) bufferViewShapeDim.invokeExact(bufferView, index);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  int bufferViewElementType(long bufferView) {
    try {
      return (int) bufferViewElementType.invokeExact(bufferView);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  int bufferViewEncodingType(long bufferView) {
    try {
      return (int) bufferViewEncodingType.invokeExact(bufferView);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  long bufferViewByteLength(long bufferView) {
    try {
      return (long) bufferViewByteLength.invokeExact(bufferView);
    } catch (Throwable t) {
      throw rethrow(t);
    }
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
