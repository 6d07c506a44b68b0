#===- TPInstall.cmake - cmake --install: headers, libraries, tools, package -===#
# `cmake --install build --prefix DIR` installs
#   include/tp/...                  the headers (tp.h, tp.hpp, the C++ API)
#   lib/libtp.so*, lib/libtp.a      the libraries (lib/CAPI)
#   bin/tp-*                        the tools
#   lib/cmake/tp/tpConfig*.cmake    find_package(tp CONFIG): tp::tp
#   lib/pkgconfig/tp.pc             pkg-config tp
#   lib/python3/dist-packages/tp    the Python module (python/tp)
include(CMakePackageConfigHelpers)

install(DIRECTORY ${CMAKE_SOURCE_DIR}/include/tp DESTINATION include
        FILES_MATCHING PATTERN "*.h" PATTERN "*.hpp" PATTERN "*.def")
install(DIRECTORY ${CMAKE_BINARY_DIR}/include/tp DESTINATION include
        FILES_MATCHING PATTERN "*.h" PATTERN "*.inc" PATTERN "*.def")
install(TARGETS tp tp_static
        LIBRARY DESTINATION lib ARCHIVE DESTINATION lib)
install(TARGETS tp-llc tp-mc tp-opt tp-sim tp-run RUNTIME DESTINATION bin)

# What a static consumer links besides libtp.a: LLVM 14's archives (the
# components tp uses) and their system libraries, from llvm-config.
find_program(TP_LLVM_CONFIG llvm-config PATHS ${LLVM_TOOLS_BINARY_DIR}
             NO_DEFAULT_PATH REQUIRED)
execute_process(COMMAND ${TP_LLVM_CONFIG} --link-static --libfiles object support
                OUTPUT_VARIABLE _llvm_libfiles OUTPUT_STRIP_TRAILING_WHITESPACE)
execute_process(COMMAND ${TP_LLVM_CONFIG} --link-static --system-libs object support
                OUTPUT_VARIABLE _llvm_syslibs OUTPUT_STRIP_TRAILING_WHITESPACE)
execute_process(COMMAND ${TP_LLVM_CONFIG} --libdir
                OUTPUT_VARIABLE TP_LLVM_LIBDIR OUTPUT_STRIP_TRAILING_WHITESPACE)
execute_process(COMMAND ${TP_LLVM_CONFIG} --includedir
                OUTPUT_VARIABLE TP_LLVM_INCLUDEDIR OUTPUT_STRIP_TRAILING_WHITESPACE)
separate_arguments(_llvm_libfiles UNIX_COMMAND "${_llvm_libfiles}")
separate_arguments(_llvm_syslibs UNIX_COMMAND "${_llvm_syslibs}")
set(TP_STATIC_LINK_LIBS ${_llvm_libfiles} ${_llvm_syslibs} -lpthread)
string(JOIN " " TP_PC_LIBS_PRIVATE ${TP_STATIC_LINK_LIBS} -lstdc++)

configure_file(${CMAKE_SOURCE_DIR}/cmake/tpConfig.cmake.in
               ${CMAKE_BINARY_DIR}/cmake/tpConfig.cmake @ONLY)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/cmake/tpConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION}
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/cmake/tpConfig.cmake
              ${CMAKE_BINARY_DIR}/cmake/tpConfigVersion.cmake
        DESTINATION lib/cmake/tp)
# tp.pc names the prefix: written at install time, for the prefix given
# to `cmake --install --prefix`.
install(CODE "
  set(PROJECT_VERSION \"${PROJECT_VERSION}\")
  set(TP_PC_LIBS_PRIVATE \"${TP_PC_LIBS_PRIVATE}\")
  set(CMAKE_INSTALL_PREFIX \"\${CMAKE_INSTALL_PREFIX}\")
  configure_file(\"${CMAKE_SOURCE_DIR}/cmake/tp.pc.in\"
                 \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/lib/pkgconfig/tp.pc\" @ONLY)
  message(STATUS \"Installing: \$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/lib/pkgconfig/tp.pc\")
")
